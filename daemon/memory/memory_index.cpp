#include "memory/memory_index.h"
#include "memory/unit_distance.h"

#include "observability/log.h"
#include "storage/rows.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <shared_mutex>
#include <sstream>
#include <unordered_set>

#include <fmt/format.h>

namespace mnemo::memory {
namespace {

constexpr std::string_view kManifestName = "manifest";
constexpr std::string_view kManifestMagic = "mnemod-memory-index 1";

int64_t unix_now_us() {
    using namespace std::chrono;
    return duration_cast<microseconds>(system_clock::now().time_since_epoch()).count();
}

// One row of the change feed, owned.
struct FeedRow {
    int64_t key = 0;
    std::string app, user;
    bool removed = false;
    std::vector<float> vector;  // empty: the memory holds no vector (none, or pending without an old one)
};

struct FeedPage {
    std::vector<FeedRow> rows;
    mnemo_memory_feed_result result{};
    bool answered = false;
};

void on_feed_row(void* ctx, const mnemo_memory* memory) {
    auto* page = static_cast<FeedPage*>(ctx);
    FeedRow row;
    row.key = memory->key;
    row.app.assign(memory->app.ptr ? memory->app.ptr : "", memory->app.len);
    row.user.assign(memory->user.ptr ? memory->user.ptr : "", memory->user.len);
    row.removed = memory->removed_at_us > 0;
    if (!row.removed && memory->vector.values != nullptr) {
        row.vector.assign(memory->vector.values, memory->vector.values + memory->vector.dims);
    }
    page->rows.push_back(std::move(row));
}

void on_feed_result(void* ctx, const mnemo_memory_feed_result* feed) {
    auto* page = static_cast<FeedPage*>(ctx);
    page->result = *feed;
    page->answered = true;
}

void on_count(void* ctx, const mnemo_memory_count_result* count) {
    *static_cast<std::optional<int64_t>*>(ctx) = count->dimension;
}

size_t size_of(const VectorIndex* index) {
    return index ? index->stats().memories : 0;
}

// App names go into file names and the manifest as hex: the name rules
// allow characters a file name or a space-separated line should not hold.
std::string hex_of(std::string_view text) {
    std::string hex;
    for (unsigned char c : text) hex += fmt::format("{:02x}", c);
    return hex;
}

bool decode_hex(std::string_view hex, std::string& out) {
    if (hex.size() % 2 != 0) return false;
    out.clear();
    for (size_t i = 0; i < hex.size(); i += 2) {
        unsigned value = 0;
        for (char c : hex.substr(i, 2)) {
            int digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
            if (digit < 0) return false;
            value = value * 16 + static_cast<unsigned>(digit);
        }
        out += static_cast<char>(value);
    }
    return true;
}

// incoming: the index a re-embedding into another dimension fills.
std::string file_name_of(std::string_view app, bool incoming) {
    return "app-" + hex_of(app) + (incoming ? ".incoming.vidx" : ".vidx");
}

struct ManifestApp {
    std::string name;
    size_t dimension = 0;
    bool incoming = false;  // a line "incoming": the app's second index (written after its "app" line)
};

struct Manifest {
    int64_t cursor = 0;
    std::vector<ManifestApp> apps;
};

std::optional<Manifest> read_manifest(const std::filesystem::path& path, std::string* problem) {
    std::ifstream in(path);
    if (!in) {
        *problem = "no checkpoint at " + path.string();
        return std::nullopt;
    }
    std::string line;
    Manifest manifest;
    if (!std::getline(in, line) || line != kManifestMagic) {
        *problem = path.string() + " is not a memory index manifest";
        return std::nullopt;
    }
    std::string tag;
    if (!std::getline(in, line) || !(std::istringstream(line) >> tag >> manifest.cursor) || tag != "cursor") {
        *problem = path.string() + " has no cursor line";
        return std::nullopt;
    }
    while (std::getline(in, line)) {
        std::istringstream fields(line);
        std::string hex;
        ManifestApp app;
        app.incoming = line.starts_with("incoming ");
        if (!(fields >> tag >> app.dimension >> hex) || (tag != "app" && !app.incoming) || !decode_hex(hex, app.name)) {
            *problem = fmt::format("{} has a damaged line: {}", path.string(), line);
            return std::nullopt;
        }
        manifest.apps.push_back(std::move(app));
    }
    return manifest;
}

std::optional<std::string> write_manifest(const std::filesystem::path& dir, const Manifest& manifest) {
    std::string text = fmt::format("{}\ncursor {}\n", kManifestMagic, manifest.cursor);
    for (const auto& app : manifest.apps) {
        text += fmt::format("{} {} {}\n", app.incoming ? "incoming" : "app", app.dimension, hex_of(app.name));
    }
    auto temp = dir / (std::string(kManifestName) + ".tmp");
    {
        std::ofstream out(temp, std::ios::trunc);
        out << text;
        out.flush();
        if (!out) return fmt::format("cannot write {}: {}", temp.string(), std::strerror(errno));
    }
    std::error_code error;
    std::filesystem::rename(temp, dir / kManifestName, error);
    if (error) return fmt::format("cannot rename {}: {}", temp.string(), error.message());
    return std::nullopt;
}

// Whether a change waiting beside `index` (see State::side) replaces or
// removes the index's copy of its key: a row without a vector leaves both
// indexes; a row of the index's dimension replaces it; a row of another
// dimension leaves the incoming index but not the serving one, which keeps
// a re-embedded memory's old vector until the switch.
bool side_hides(const FeedRow& row, size_t dimension, bool serving) {
    return row.vector.empty() || row.vector.size() == dimension || !serving;
}

// A search of an index being saved: the index answers for the keys the side
// does not hide, the side's rows of the index's dimension are scanned
// exactly, the two lists merged best first.
std::variant<std::vector<VectorHit>, VectorError> search_beside(const VectorIndex& index, bool serving,
                                                                const std::map<uint64_t, FeedRow>& side,
                                                                std::span<const float> query, size_t k,
                                                                const VectorFilter& filter) {
    const size_t dimension = index.options().dimension;
    VectorFilter past = filter;
    past.accept = [&](uint64_t key) {
        auto found = side.find(key);
        if (found != side.end() && side_hides(found->second, dimension, serving)) return false;
        return !filter.accept || filter.accept(key);
    };
    auto answer = index.search(query, k, past);
    if (std::holds_alternative<VectorError>(answer)) return answer;
    auto hits = std::get<std::vector<VectorHit>>(std::move(answer));
    auto unit_query = std::get<std::vector<float>>(unit_vector(query, dimension));  // index.search took it
    for (const auto& [key, row] : side) {
        if (row.vector.size() != dimension || (filter.user && row.user != *filter.user)) continue;
        if ((filter.candidates && !filter.candidates->contains(key)) || (filter.accept && !filter.accept(key)))
            continue;
        auto unit = unit_vector(row.vector, dimension);
        if (!std::holds_alternative<std::vector<float>>(unit)) continue;  // put() refuses it too
        const auto& values = std::get<std::vector<float>>(unit);
        // The graph's own distance, so a side row ranks exactly as it will once applied.
        float similarity = 1.0f - fastest_unit_distance().distance(unit_query.data(), values.data(), &dimension);
        if (filter.min_similarity && similarity < *filter.min_similarity) continue;
        hits.push_back(VectorHit{key, similarity});
    }
    std::sort(hits.begin(), hits.end(), [](const VectorHit& a, const VectorHit& b) {
        return a.similarity > b.similarity || (a.similarity == b.similarity && a.key > b.key);
    });
    if (hits.size() > k) hits.resize(k);
    return hits;
}

}  // namespace

// The indexes of one app: the one recall uses, and while the app's memories
// are re-embedded into another dimension, the one that fills with them. A
// memory re-embedded keeps its old vector in the serving index (storage no
// longer holds it, but it still describes the same text) so that index stays
// whole until the switch; `moved` names those memories.
struct AppIndexes {
    std::unique_ptr<VectorIndex> serving;
    std::unique_ptr<VectorIndex> incoming;  // null: no re-embedding under way
    // Keys in both indexes: changed by the feed's reader only; moved_count
    // mirrors its size for readers of transitions().
    std::unordered_set<uint64_t> moved;
    std::atomic<size_t> moved_count{0};

    size_t remaining() const { return size_of(serving.get()) - std::min(size_of(serving.get()), moved_count.load()); }
    void set_moved(uint64_t key, bool in_both) {
        in_both ? (void)moved.insert(key) : (void)moved.erase(key);
        moved_count = moved.size();
    }
    // After a load or a swap: the keys both indexes hold.
    void count_moved() {
        moved.clear();
        if (serving && incoming) {
            for (uint64_t key : incoming->keys()) {
                if (serving->contains(key)) moved.insert(key);
            }
        }
        moved_count = moved.size();
    }

    // The index of vectors of that dimension, or null.
    VectorIndex* of(size_t dimension) const {
        if (serving && serving->options().dimension == dimension) return serving.get();
        if (incoming && incoming->options().dimension == dimension) return incoming.get();
        return nullptr;
    }
};

struct MemoryIndex::State {
    State(const storage::Backend& backend_in, MemoryIndexOptions options_in)
        : backend(backend_in), options(std::move(options_in)) {}

    const storage::Backend& backend;
    const MemoryIndexOptions options;

    // Feed reads and applying them; the lock order is catch_up_mutex, then
    // apps_mutex, then side_mutex.
    std::mutex catch_up_mutex;
    // The map of apps: shared while an index is used, exclusive to add or
    // swap an app's index or drop all. A checkpoint saves an app's indexes
    // without it: std::map keeps the app's node in place, and nothing of that
    // app changes while it is saved (its changes wait in `side`).
    mutable std::shared_mutex apps_mutex;
    std::map<std::string, AppIndexes, std::less<>> apps;

    // A checkpoint writes one app's indexes at a time, holding each index's
    // read lock for as long as the file takes (seconds at a million
    // memories). Meanwhile that app's changes wait here (the latest row of
    // each key) instead of waiting for the lock, so neither the feed nor a
    // search waits; searches of the app look past the index's copy of these
    // keys and scan these rows exactly; the checkpoint applies them once the
    // file is written. `saving` is written under catch_up_mutex and
    // side_mutex; `drop_after_saving` under catch_up_mutex.
    mutable std::shared_mutex side_mutex;
    std::string saving;  // the app being saved; "" when none
    std::map<uint64_t, FeedRow> side;
    bool drop_after_saving = false;
    std::atomic<int64_t> cursor{0};
    std::atomic<size_t> changes_since_checkpoint{0};

    // Until the checkpoint is loaded, no one reads the feed or searches.
    std::mutex ready_mutex;
    std::condition_variable ready_changed;
    bool ready = true;

    std::mutex thread_mutex;
    std::condition_variable wake;
    bool stopping = false;
    std::thread thread;

    mutable std::mutex figures_mutex;
    int64_t checkpoint_cursor = 0;
    int64_t checkpoint_at_us = 0;
    std::string last_error;
    std::string repeating_error;  // logged already; cleared by a successful catch-up
    std::chrono::steady_clock::time_point last_checkpoint = std::chrono::steady_clock::now();

    bool checkpoints() const { return !options.checkpoint_dir.empty(); }
    // Logs a failure once while it repeats: the follower retries every
    // poll_interval, and a storage outage must not flood the log.
    void note_error(std::string message) {
        std::lock_guard lock(figures_mutex);
        if (message == repeating_error) return;
        log::warn("memory index: {}", message);
        repeating_error = message;
        last_error = std::move(message);
    }
    void wait_ready() {
        std::unique_lock lock(ready_mutex);
        ready_changed.wait(lock, [this] { return ready; });
    }

    std::optional<VectorError> read_feed(FeedPage& page, int64_t after_seq) const;
    std::optional<int64_t> stored_dimension(const std::string& app);
    void put(VectorIndex& index, const FeedRow& row);
    void apply(const FeedRow& row);
    void add_dimension(const FeedRow& row);
    void settle(const std::string& app);
    void drop_everything();
    std::array<const VectorIndex*, 2> begin_saving(const std::string& app);
    bool end_saving();
    std::optional<VectorError> catch_up();
    bool build_step(unsigned threads);
    void checkpoint();
    void load_checkpoint();
    void follow();
};

std::optional<VectorError> MemoryIndex::State::read_feed(FeedPage& page, int64_t after_seq) const {
    const auto& ops = backend.ops();
    mnemo_sink sink{};
    sink.ctx = &page;
    sink.memory = on_feed_row;
    sink.memory_feed = on_feed_result;
    mnemo_memory_changes_req req{after_seq, static_cast<int64_t>(options.feed_batch)};
    auto error = backend.call([&](mnemo_error* err) { return ops.memory_changes(backend.handle(), &req, &sink, err); });
    if (error) return VectorError{"reading the memory change feed failed: " + error->message};
    if (!page.answered) return VectorError{"the storage plugin answered the memory change feed without its cursor"};
    return std::nullopt;
}

// The dimension storage holds for the app (memory_reembed moves it): which
// of two indexes is the new one. nullopt: storage did not answer.
std::optional<int64_t> MemoryIndex::State::stored_dimension(const std::string& app) {
    std::optional<int64_t> dimension;
    mnemo_sink sink{};
    sink.ctx = &dimension;
    sink.memory_count = on_count;
    mnemo_memory_count_req req{storage::str(app), {nullptr, 0}, unix_now_us()};
    auto error =
        backend.call([&](mnemo_error* err) { return backend.ops().memory_count(backend.handle(), &req, &sink, err); });
    if (error) {
        note_error(fmt::format("app '{}': reading its dimension failed: {}", app, error->message));
        return std::nullopt;
    }
    return dimension;
}

void MemoryIndex::State::put(VectorIndex& index, const FeedRow& row) {
    if (auto error = index.put(static_cast<uint64_t>(row.key), row.user, row.vector)) {
        note_error(fmt::format("memory key {} of app '{}' not indexed: {}", row.key, row.app, error->message));
    }
}

// Each row goes to the index of its vector's dimension. A row without a
// vector (gone, or a text changed) leaves both; a row of the old dimension
// leaves the new index; a row of the new dimension keeps its old vector in
// the serving index until the switch.
void MemoryIndex::State::apply(const FeedRow& row) {
    auto key = static_cast<uint64_t>(row.key);
    // Under catch_up_mutex, like begin_saving and end_saving: `saving` cannot change meanwhile.
    if (!saving.empty() && row.app == saving) {
        std::unique_lock lock(side_mutex);
        side.insert_or_assign(key, row);
        return;
    }
    {
        std::shared_lock lock(apps_mutex);
        auto found = apps.find(row.app);
        if (found == apps.end() && row.vector.empty()) return;
        if (found != apps.end()) {
            AppIndexes& app = found->second;
            VectorIndex* home = row.vector.empty() ? nullptr : app.of(row.vector.size());
            if (home != nullptr || row.vector.empty()) {
                if (home != app.serving.get()) {
                    if (home == nullptr) app.serving->erase(key);
                    if (app.incoming && home != app.incoming.get()) app.incoming->erase(key);
                } else if (app.incoming) {
                    app.incoming->erase(key);
                }
                if (home != nullptr) put(*home, row);
                if (app.incoming) app.set_moved(key, home == app.incoming.get() && app.serving->contains(key));
                lock.unlock();
                settle(row.app);
                return;
            }
            // A dimension the app has no index for: it leaves the new index (a
            // third dimension replaces it, see add_dimension).
            if (app.incoming) {
                app.incoming->erase(key);
                app.set_moved(key, false);
            }
        }
    }
    add_dimension(row);
    settle(row.app);
}

// A vector of a dimension the app has no index for: its first vector, or the
// first of a re-embedding into another dimension. Storage says which
// dimension is the app's now; the other index keeps serving recall.
void MemoryIndex::State::add_dimension(const FeedRow& row) {
    bool known = false;
    {
        std::shared_lock lock(apps_mutex);
        known = apps.count(row.app) != 0;
    }
    // Asked before the exclusive lock, so searches go on meanwhile.
    // -1: not asked (the app's first vector), or storage did not answer.
    const int64_t target = known ? stored_dimension(row.app).value_or(-1) : -1;
    VectorIndexOptions vectors = options.vectors;
    vectors.dimension = row.vector.size();
    auto index = std::make_unique<VectorIndex>(vectors);
    put(*index, row);
    std::unique_lock lock(apps_mutex);
    AppIndexes& app = apps[row.app];
    if (!app.serving) {
        app.serving = std::move(index);
        return;
    }
    const auto serving_dimension = static_cast<int64_t>(app.serving->options().dimension);
    const auto row_dimension = static_cast<int64_t>(row.vector.size());
    if (!app.incoming) {
        // Read from the start, the feed may show a re-embedded row before the
        // old ones: the index of storage's dimension is the new one, whichever came first.
        if (target == serving_dimension) {
            app.incoming = std::move(app.serving);
            app.serving = std::move(index);
        } else {
            app.incoming = std::move(index);
        }
        app.count_moved();
        log::info(
            "memory index: app '{}' is re-embedded from {} into {} dimensions; recall uses the {}-dimension "
            "index until every memory has moved",
            row.app, app.serving->options().dimension, app.incoming->options().dimension,
            app.serving->options().dimension);
        return;
    }
    // A third dimension: a re-embedding into yet another model before the last one ended.
    if (target == row_dimension) {
        log::warn(
            "memory index: app '{}' is re-embedded into {} dimensions before its move to {} ended; the "
            "{} memories already at {} leave semantic recall until they are embedded again",
            row.app, row_dimension, app.incoming->options().dimension, app.incoming->stats().memories,
            app.incoming->options().dimension);
        app.incoming = std::move(index);
        app.count_moved();
        return;
    }
    note_error(
        fmt::format("memory key {} of app '{}' has {} dimensions, the app's indexes {} and {}; it is left out "
                    "of semantic recall until it is embedded again",
                    row.key, row.app, row_dimension, serving_dimension, app.incoming->options().dimension));
}

// Recall moves to the new index once every memory of the old one has moved
// (the old one is dropped); an incoming index that lost its every memory goes.
void MemoryIndex::State::settle(const std::string& name) {
    {
        std::shared_lock lock(apps_mutex);
        auto found = apps.find(name);
        if (found == apps.end() || !found->second.incoming) return;
        if (found->second.remaining() > 0 && size_of(found->second.incoming.get()) > 0) return;
    }
    std::unique_lock lock(apps_mutex);
    AppIndexes& app = apps[name];
    if (size_of(app.incoming.get()) > 0) {
        log::info("memory index: every memory of app '{}' is in the {}-dimension index; recall uses it from now on",
                  name, app.incoming->options().dimension);
        app.serving = std::move(app.incoming);
    }
    app.incoming.reset();
    app.count_moved();
}

void MemoryIndex::State::drop_everything() {
    cursor = 0;
    if (!saving.empty()) {
        // The app being saved is in use without the map's lock: the drop
        // waits for end_saving; meanwhile the feed is read again from 0.
        drop_after_saving = true;
        std::unique_lock lock(side_mutex);
        side.clear();
        return;
    }
    std::unique_lock lock(apps_mutex);
    apps.clear();
}

// Under catch_up_mutex: every change before this one is in the app's indexes
// (and may be in its file), every later one goes to the side.
std::array<const VectorIndex*, 2> MemoryIndex::State::begin_saving(const std::string& app) {
    std::lock_guard feed(catch_up_mutex);
    {
        std::unique_lock lock(side_mutex);
        saving = app;
    }
    std::shared_lock lock(apps_mutex);
    auto found = apps.find(app);
    if (found == apps.end()) return {nullptr, nullptr};
    return {found->second.serving.get(), found->second.incoming.get()};
}

// The changes that waited beside the saved app go into its indexes; true when
// the feed was read again from 0 meanwhile (every index dropped now).
bool MemoryIndex::State::end_saving() {
    std::lock_guard feed(catch_up_mutex);
    std::map<uint64_t, FeedRow> rows;
    {
        std::unique_lock lock(side_mutex);
        saving.clear();
        rows.swap(side);
    }
    if (drop_after_saving) {
        drop_after_saving = false;
        drop_everything();
        return true;
    }
    for (const auto& [key, row] : rows) apply(row);
    return false;
}

std::optional<VectorError> MemoryIndex::State::catch_up() {
    wait_ready();
    std::lock_guard lock(catch_up_mutex);
    while (true) {
        FeedPage page;
        int64_t after = cursor.load();
        if (auto error = read_feed(page, after)) {
            note_error(error->message);
            return error;
        }
        if (after > 0 && page.rows.empty() && page.result.horizon > after) {
            log::info("memory index: cursor {} is below the change feed's horizon {}; reading every memory again",
                      after, page.result.horizon);
            drop_everything();
            continue;
        }
        for (const FeedRow& row : page.rows) apply(row);
        changes_since_checkpoint += page.rows.size();
        cursor = page.result.last_seq;
        if (!page.result.more) {
            std::lock_guard figures(figures_mutex);
            repeating_error.clear();
            return std::nullopt;
        }
    }
}

// Links one batch of some index's tail into its graph, with `threads`
// threads; false when every tail is empty.
bool MemoryIndex::State::build_step(unsigned threads) {
    std::shared_lock lock(apps_mutex);
    for (auto& [name, app] : apps) {
        for (VectorIndex* index : {app.serving.get(), app.incoming.get()}) {
            if (index != nullptr && index->stats().tail > 0) {
                // Linking is a change the next checkpoint must save: else a restart links the
                // whole tail again (a bulk load's: most of it) when no write came after it.
                changes_since_checkpoint += index->build_some(options.build_batch, threads);
                return true;
            }
        }
    }
    return false;
}

void MemoryIndex::State::checkpoint() {
    namespace fs = std::filesystem;
    fs::path dir(options.checkpoint_dir);
    std::error_code error;
    fs::create_directories(dir, error);
    if (error) return note_error(fmt::format("cannot create {}: {}", dir.string(), error.message()));
    // Every change up to the cursor is in the indexes before any is saved; a
    // file may hold later ones too, which replaying the feed from the cursor
    // applies again without harm.
    Manifest manifest;
    size_t changes = 0;
    std::vector<std::string> names;
    {
        std::lock_guard feed(catch_up_mutex);
        manifest.cursor = cursor.load();
        changes = changes_since_checkpoint.exchange(0);
        std::shared_lock lock(apps_mutex);
        for (const auto& [name, app] : apps) names.push_back(name);
    }
    for (const std::string& name : names) {
        std::array<const VectorIndex*, 2> indexes = begin_saving(name);
        if (indexes[0] == nullptr) {
            // Apps are only ever dropped all at once: the feed is being read
            // again from 0, and a manifest without this app would lose it.
            end_saving();
            changes_since_checkpoint += changes;
            return;
        }
        std::optional<VectorError> failure;
        for (bool incoming : {false, true}) {
            const VectorIndex* index = indexes[incoming ? 1 : 0];
            if (index == nullptr || failure) continue;
            failure =
                index->save((dir / file_name_of(name, incoming)).string(), static_cast<uint64_t>(manifest.cursor));
            if (!failure) manifest.apps.push_back(ManifestApp{name, index->options().dimension, incoming});
        }
        bool dropped = end_saving();
        if (failure || dropped) {
            changes_since_checkpoint += changes;
            if (failure) note_error(failure->message);
            return;  // dropped: the indexes are being built again; the next checkpoint saves them
        }
    }
    if (auto failure = write_manifest(dir, manifest)) {
        changes_since_checkpoint += changes;
        return note_error(*failure);
    }
    std::lock_guard figures(figures_mutex);
    checkpoint_cursor = manifest.cursor;
    checkpoint_at_us = unix_now_us();
    last_checkpoint = std::chrono::steady_clock::now();
}

void MemoryIndex::State::load_checkpoint() {
    namespace fs = std::filesystem;
    fs::path dir(options.checkpoint_dir);
    std::string problem;
    auto manifest = read_manifest(dir / kManifestName, &problem);
    if (!manifest) {
        log::info("memory index: {}; building the index from the stored memories", problem);
        return;
    }
    std::map<std::string, AppIndexes, std::less<>> loaded;
    for (const auto& app : manifest->apps) {
        VectorIndexOptions vectors = options.vectors;
        vectors.dimension = app.dimension;
        auto result = VectorIndex::load((dir / file_name_of(app.name, app.incoming)).string(), vectors);
        if (auto* failure = std::get_if<VectorError>(&result)) {
            note_error(fmt::format("app '{}': {}", app.name, failure->message));
            return;
        }
        auto& index = std::get<VectorIndex::Loaded>(result).index;
        AppIndexes& indexes = loaded[app.name];
        (app.incoming ? indexes.incoming : indexes.serving) = std::move(index);
    }
    for (auto& [name, indexes] : loaded) {
        indexes.count_moved();
        if (!indexes.serving) {
            note_error(fmt::format("{} names an incoming index of app '{}' without its serving one",
                                   (dir / kManifestName).string(), name));
            return;
        }
    }
    {
        std::unique_lock lock(apps_mutex);
        apps = std::move(loaded);
        cursor = manifest->cursor;
    }
    std::lock_guard figures(figures_mutex);
    checkpoint_cursor = manifest->cursor;
    checkpoint_at_us = unix_now_us();
    log::info("memory index: loaded {} index(es) at change {} from {}", manifest->apps.size(), manifest->cursor,
              dir.string());
}

void MemoryIndex::State::follow() {
    if (checkpoints()) {
        load_checkpoint();
        std::lock_guard lock(ready_mutex);
        ready = true;
        ready_changed.notify_all();
    }
    // While writes arrive the API keeps the other cores; once they stop (a
    // poll brought nothing) every core links, so a bulk load's tail is
    // caught up as fast as the machine allows.
    const unsigned all_cores = std::max(1u, std::thread::hardware_concurrency());
    while (true) {
        const int64_t before = cursor.load();
        catch_up();
        bool more_to_build = build_step(cursor.load() == before ? all_cores : 1);
        bool due = false;
        if (checkpoints()) {
            std::lock_guard figures(figures_mutex);
            due = changes_since_checkpoint >= options.checkpoint_min_changes &&
                  std::chrono::steady_clock::now() - last_checkpoint >= options.checkpoint_interval;
        }
        if (due) checkpoint();
        std::unique_lock lock(thread_mutex);
        if (stopping) return;
        if (!more_to_build) wake.wait_for(lock, options.poll_interval, [this] { return stopping; });
        if (stopping) return;
    }
}

MemoryIndex::MemoryIndex(const storage::Backend& backend, MemoryIndexOptions options)
    : state_(std::make_unique<State>(backend, std::move(options))) {}

MemoryIndex::~MemoryIndex() {
    {
        std::lock_guard lock(state_->thread_mutex);
        state_->stopping = true;
    }
    state_->wake.notify_all();
    if (state_->thread.joinable()) state_->thread.join();
}

void MemoryIndex::start() {
    if (state_->thread.joinable()) return;
    log::info("memory index: vector distance computed with {} instructions", fastest_unit_distance().name);
    if (state_->checkpoints()) {
        std::lock_guard lock(state_->ready_mutex);
        state_->ready = false;
    }
    state_->thread = std::thread([state = state_.get()] { state->follow(); });
}

void MemoryIndex::stop() {
    {
        std::lock_guard lock(state_->thread_mutex);
        state_->stopping = true;
    }
    state_->wake.notify_all();
    if (!state_->thread.joinable()) return;
    state_->thread.join();
    if (!state_->checkpoints()) return;
    // The writes of the last poll interval too: the next start has nothing to replay that this one could save.
    state_->catch_up();
    if (state_->changes_since_checkpoint > 0) state_->checkpoint();
}

std::optional<VectorError> MemoryIndex::catch_up() {
    return state_->catch_up();
}

std::variant<std::vector<VectorHit>, VectorError> MemoryIndex::search(std::string_view app,
                                                                      std::span<const float> query, size_t k,
                                                                      const VectorFilter& filter) {
    // A feed that cannot be read leaves the index as it was: recall answers
    // from it, and the rows it returns are read from storage anyway.
    state_->catch_up();
    std::shared_lock lock(state_->apps_mutex);
    auto found = state_->apps.find(app);
    if (found == state_->apps.end()) return std::vector<VectorHit>{};
    // The old dimension searches the old, complete index; the new one (the
    // embedder's new model) the memories re-embedded so far.
    if (VectorIndex* index = found->second.of(query.size())) {
        {
            std::shared_lock side_lock(state_->side_mutex);
            if (state_->saving == app && !state_->side.empty()) {
                return search_beside(*index, index == found->second.serving.get(), state_->side, query, k, filter);
            }
        }
        // Whatever the catch-up above applied is in the index: the side holds only later changes.
        return index->search(query, k, filter);
    }
    const AppIndexes& indexes = found->second;
    size_t dimension = indexes.serving->options().dimension;
    if (indexes.incoming) {
        return VectorError{fmt::format(
            "the query vector has {} dimensions, but app {}'s memories have {} and are being re-embedded into {}; "
            "embed the query with the model of either",
            query.size(), app, dimension, indexes.incoming->options().dimension)};
    }
    return VectorError{
        fmt::format("the query vector has {} dimensions, but app {}'s memories have {}; embed the "
                    "query with the model of the stored vectors",
                    query.size(), app, dimension)};
}

std::optional<size_t> MemoryIndex::dimension(std::string_view app) {
    state_->catch_up();
    std::shared_lock lock(state_->apps_mutex);
    auto found = state_->apps.find(app);
    if (found == state_->apps.end()) return std::nullopt;
    return found->second.serving->options().dimension;
}

std::vector<IndexTransition> MemoryIndex::transitions() const {
    std::vector<IndexTransition> out;
    std::shared_lock lock(state_->apps_mutex);
    for (const auto& [name, app] : state_->apps) {
        if (!app.incoming) continue;
        out.push_back(IndexTransition{name, app.serving->options().dimension, app.incoming->options().dimension,
                                      app.remaining(), size_of(app.incoming.get())});
    }
    return out;
}

std::optional<IndexTransition> MemoryIndex::transition(std::string_view app) const {
    std::shared_lock lock(state_->apps_mutex);
    auto found = state_->apps.find(app);
    if (found == state_->apps.end() || !found->second.incoming) return std::nullopt;
    const AppIndexes& indexes = found->second;
    return IndexTransition{std::string(app), indexes.serving->options().dimension,
                           indexes.incoming->options().dimension, indexes.remaining(), size_of(indexes.incoming.get())};
}

MemoryIndexStats MemoryIndex::stats() const {
    MemoryIndexStats out;
    out.cursor = state_->cursor.load();
    {
        std::shared_lock lock(state_->apps_mutex);
        out.apps = state_->apps.size();
        for (const auto& [name, app] : state_->apps) {
            for (const VectorIndex* index : {app.serving.get(), app.incoming.get()}) {
                if (index == nullptr) continue;
                auto figures = index->stats();
                out.memories += figures.memories;
                out.tail += figures.tail;
            }
        }
    }
    std::lock_guard lock(state_->figures_mutex);
    out.checkpoint_cursor = state_->checkpoint_cursor;
    out.checkpoint_at_us = state_->checkpoint_at_us;
    out.last_error = state_->last_error;
    return out;
}

}  // namespace mnemo::memory
