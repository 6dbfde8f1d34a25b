#include "memory/memory_index.h"

#include "observability/log.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <shared_mutex>
#include <sstream>

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

std::string file_name_of(std::string_view app) {
    return "app-" + hex_of(app) + ".vidx";
}

struct ManifestApp {
    std::string name;
    size_t dimension = 0;
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
        if (!(fields >> tag >> app.dimension >> hex) || tag != "app" || !decode_hex(hex, app.name)) {
            *problem = fmt::format("{} has a damaged line: {}", path.string(), line);
            return std::nullopt;
        }
        manifest.apps.push_back(std::move(app));
    }
    return manifest;
}

std::optional<std::string> write_manifest(const std::filesystem::path& dir, const Manifest& manifest) {
    std::string text = fmt::format("{}\ncursor {}\n", kManifestMagic, manifest.cursor);
    for (const auto& app : manifest.apps) text += fmt::format("app {} {}\n", app.dimension, hex_of(app.name));
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

// A search of an index being saved: the index answers for the keys the side
// does not hold, the side's rows are scanned exactly, the two lists merged.
std::variant<std::vector<VectorHit>, VectorError> search_beside(const VectorIndex& index,
                                                                const std::map<uint64_t, FeedRow>& side,
                                                                std::span<const float> query, size_t k,
                                                                const VectorFilter& filter) {
    VectorFilter past = filter;
    past.accept = [&side, &filter](uint64_t key) {
        return !side.contains(key) && (!filter.accept || filter.accept(key));
    };
    auto answer = index.search(query, k, past);
    if (std::holds_alternative<VectorError>(answer)) return answer;
    auto hits = std::get<std::vector<VectorHit>>(std::move(answer));
    size_t dimension = index.options().dimension;
    auto unit_query = std::get<std::vector<float>>(unit_vector(query, dimension));  // index.search accepted it
    for (const auto& [key, row] : side) {
        if (row.vector.size() != dimension || (filter.user && row.user != *filter.user)) continue;
        if ((filter.candidates && !filter.candidates->contains(key)) || (filter.accept && !filter.accept(key)))
            continue;
        auto unit = unit_vector(row.vector, dimension);
        if (!std::holds_alternative<std::vector<float>>(unit)) continue;  // apply() refuses it too
        const auto& values = std::get<std::vector<float>>(unit);
        float similarity = 0;
        for (size_t i = 0; i < dimension; ++i) similarity += unit_query[i] * values[i];
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

struct MemoryIndex::State {
    State(const storage::Backend& backend_in, MemoryIndexOptions options_in)
        : backend(backend_in), options(std::move(options_in)) {}

    const storage::Backend& backend;
    const MemoryIndexOptions options;

    // Feed reads and applying them; the lock order is catch_up_mutex, then apps_mutex, then side_mutex.
    std::mutex catch_up_mutex;
    // The map of apps: shared while an index is used, exclusive to add an app or drop all.
    // Shared pointers: a checkpoint saves an index without holding the map.
    mutable std::shared_mutex apps_mutex;
    std::map<std::string, std::shared_ptr<VectorIndex>, std::less<>> apps;

    // A checkpoint writes one app's index at a time, holding that index's
    // read lock for as long as the file takes (seconds at a million
    // memories). Meanwhile that app's changes wait here (the latest row of
    // each key) instead of waiting for the lock, searches of the app look
    // past the index's copy of these keys and scan these rows exactly, and
    // the checkpoint applies them once the file is written.
    mutable std::shared_mutex side_mutex;
    std::string saving;  // the app being saved, "" when none: written under catch_up_mutex and side_mutex
    std::map<uint64_t, FeedRow> side;
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
    void apply(const FeedRow& row);
    void begin_saving(const std::string& app);
    void end_saving();
    void drop_everything();
    std::optional<VectorError> catch_up();
    bool build_step();
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
        if (found != apps.end()) {
            VectorIndex& index = *found->second;
            if (row.vector.empty()) {
                index.erase(key);
                return;
            }
            if (row.vector.size() == index.options().dimension) {
                if (auto error = index.put(key, row.user, row.vector)) {
                    note_error(
                        fmt::format("memory key {} of app '{}' not indexed: {}", row.key, row.app, error->message));
                }
                return;
            }
            // Storage fixes an app's dimension, so this is a re-embed into another one: follow the new vectors.
            index.erase(key);
            note_error(
                fmt::format("memory key {} of app '{}' has {} dimensions, the index {}; it is left out of "
                            "semantic recall until the app's index is rebuilt",
                            row.key, row.app, row.vector.size(), index.options().dimension));
            return;
        }
    }
    if (row.vector.empty()) return;
    VectorIndexOptions vectors = options.vectors;
    vectors.dimension = row.vector.size();
    auto index = std::make_shared<VectorIndex>(vectors);
    if (auto error = index->put(key, row.user, row.vector)) {
        note_error(fmt::format("memory key {} of app '{}' not indexed: {}", row.key, row.app, error->message));
        return;
    }
    std::unique_lock lock(apps_mutex);
    apps.emplace(row.app, std::move(index));
}

void MemoryIndex::State::drop_everything() {
    std::unique_lock lock(apps_mutex);
    apps.clear();
    cursor = 0;
    std::unique_lock side_lock(side_mutex);
    side.clear();  // the feed is read again from 0: it brings these rows again
}

// Under catch_up_mutex, so that every change before this one is in the index
// (and may be in the file) and every later one goes to the side.
void MemoryIndex::State::begin_saving(const std::string& app) {
    std::lock_guard feed(catch_up_mutex);
    std::unique_lock lock(side_mutex);
    saving = app;
}

void MemoryIndex::State::end_saving() {
    std::lock_guard feed(catch_up_mutex);
    std::map<uint64_t, FeedRow> rows;
    {
        std::unique_lock lock(side_mutex);
        saving.clear();
        rows.swap(side);
    }
    for (const auto& [key, row] : rows) apply(row);
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

// Links one batch of some app's tail into its graph; false when every tail is empty.
bool MemoryIndex::State::build_step() {
    std::shared_lock lock(apps_mutex);
    for (auto& [name, index] : apps) {
        if (index->stats().tail > 0) {
            index->build_some(options.build_batch);
            return true;
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
    std::vector<std::pair<std::string, std::shared_ptr<VectorIndex>>> saved;
    {
        std::lock_guard feed(catch_up_mutex);
        manifest.cursor = cursor.load();
        changes = changes_since_checkpoint.exchange(0);
        std::shared_lock lock(apps_mutex);
        for (const auto& [name, index] : apps) saved.emplace_back(name, index);
    }
    for (const auto& [name, index] : saved) {
        begin_saving(name);
        auto failure = index->save((dir / file_name_of(name)).string(), static_cast<uint64_t>(manifest.cursor));
        end_saving();
        if (failure) {
            changes_since_checkpoint += changes;
            return note_error(failure->message);
        }
        manifest.apps.push_back(ManifestApp{name, index->options().dimension});
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
    std::map<std::string, std::shared_ptr<VectorIndex>, std::less<>> loaded;
    for (const auto& app : manifest->apps) {
        VectorIndexOptions vectors = options.vectors;
        vectors.dimension = app.dimension;
        auto result = VectorIndex::load((dir / file_name_of(app.name)).string(), vectors);
        if (auto* failure = std::get_if<VectorError>(&result)) {
            note_error(fmt::format("app '{}': {}", app.name, failure->message));
            return;
        }
        loaded.emplace(app.name, std::move(std::get<VectorIndex::Loaded>(result).index));
    }
    {
        std::unique_lock lock(apps_mutex);
        apps = std::move(loaded);
        cursor = manifest->cursor;
    }
    std::lock_guard figures(figures_mutex);
    checkpoint_cursor = manifest->cursor;
    checkpoint_at_us = unix_now_us();
    log::info("memory index: loaded {} app(s) at change {} from {}", manifest->apps.size(), manifest->cursor,
              dir.string());
}

void MemoryIndex::State::follow() {
    if (checkpoints()) {
        load_checkpoint();
        std::lock_guard lock(ready_mutex);
        ready = true;
        ready_changed.notify_all();
    }
    while (true) {
        catch_up();
        bool more_to_build = build_step();
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
    size_t dimension = found->second->options().dimension;
    if (query.size() != dimension) {
        return VectorError{
            fmt::format("the query vector has {} dimensions, but app {}'s memories have {}; embed the "
                        "query with the model of the stored vectors",
                        query.size(), app, dimension)};
    }
    {
        std::shared_lock side_lock(state_->side_mutex);
        if (state_->saving == app && !state_->side.empty()) {
            return search_beside(*found->second, state_->side, query, k, filter);
        }
    }
    // Whatever the catch-up above applied is in the index: the side holds only later changes.
    return found->second->search(query, k, filter);
}

std::optional<size_t> MemoryIndex::dimension(std::string_view app) {
    state_->catch_up();
    std::shared_lock lock(state_->apps_mutex);
    auto found = state_->apps.find(app);
    if (found == state_->apps.end()) return std::nullopt;
    return found->second->options().dimension;
}

MemoryIndexStats MemoryIndex::stats() const {
    MemoryIndexStats out;
    out.cursor = state_->cursor.load();
    {
        std::shared_lock lock(state_->apps_mutex);
        out.apps = state_->apps.size();
        for (const auto& [name, index] : state_->apps) {
            auto figures = index->stats();
            out.memories += figures.memories;
            out.tail += figures.tail;
        }
    }
    std::lock_guard lock(state_->figures_mutex);
    out.checkpoint_cursor = state_->checkpoint_cursor;
    out.checkpoint_at_us = state_->checkpoint_at_us;
    out.last_error = state_->last_error;
    return out;
}

}  // namespace mnemo::memory
