// Conformance: docs/memories.md Export -- long-term memories travel through
// export(app, path) / import(path) with every field (text, namespace,
// metadata, session_id, source, status, model, vector, timestamps); a
// second import changes nothing, not even the change feed; an import puts
// back what changed since; expired memories stay out; a bad memory line is
// named by its number. Memories are written through the plugin's memory
// ops, as the memory routes would; every backend keeps them, and each
// imports into another kind (memory into sqlite, the SQL ones into memory).
#include "transfer_fixture.h"

#include "core/memory_text.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <optional>

namespace mnemo::testing {
namespace {

std::optional<std::string> opt(mnemo_str text) {
    return text.ptr ? std::optional<std::string>(std::string(text.ptr, text.len)) : std::nullopt;
}

// A memory as stored: every field but the store's own key, text_version and change_seq.
struct StoredMemory {
    std::string app, user, id, name_space, text, metadata_json;
    std::optional<std::string> session_id, source_session, embedding_model;
    int64_t source_seq = 0;
    int embedding = -1;
    std::vector<float> vector;
    int64_t created_at_us = 0, updated_at_us = 0, expires_at_us = 0;
    bool operator==(const StoredMemory&) const = default;
};

std::ostream& operator<<(std::ostream& out, const StoredMemory& m) {
    out << m.app << "/" << m.user << "/" << m.id << " ns=" << m.name_space << " text=" << m.text
        << " metadata=" << m.metadata_json << " session=" << m.session_id.value_or("null")
        << " source=" << m.source_session.value_or("null") << ":" << m.source_seq << " status=" << m.embedding
        << " model=" << m.embedding_model.value_or("null") << " vector=[";
    for (float v : m.vector) out << v << ",";
    return out << "] at " << m.created_at_us << "/" << m.updated_at_us << "/" << m.expires_at_us;
}

// What memory rows came back through the sink, with their keys and text versions.
struct Rows {
    std::vector<StoredMemory> memories;
    std::vector<int64_t> keys, text_versions;
    mnemo_memory_feed_result feed{};
};

void on_memory(void* ctx, const mnemo_memory* m) {
    auto& rows = *static_cast<Rows*>(ctx);
    StoredMemory copy{opt(m->app).value_or(""),
                      opt(m->user).value_or(""),
                      opt(m->id).value_or(""),
                      opt(m->name_space).value_or(""),
                      opt(m->text).value_or(""),
                      opt(m->metadata_json).value_or(""),
                      opt(m->session_id),
                      opt(m->source_session),
                      opt(m->embedding_model),
                      m->source_seq,
                      m->embedding,
                      {},
                      m->created_at_us,
                      m->updated_at_us,
                      m->expires_at_us};
    if (m->vector.values) copy.vector.assign(m->vector.values, m->vector.values + m->vector.dims);
    rows.memories.push_back(std::move(copy));
    rows.keys.push_back(m->key);
    rows.text_versions.push_back(m->text_version);
}

void on_feed(void* ctx, const mnemo_memory_feed_result* feed) {
    static_cast<Rows*>(ctx)->feed = *feed;
}

mnemo_sink rows_sink(Rows& rows) {
    mnemo_sink sink{};
    sink.ctx = &rows;
    sink.memory = on_memory;
    sink.memory_feed = on_feed;
    return sink;
}

mnemo_str s(const std::string& text) {
    return mnemo_str{text.data(), text.size()};
}
mnemo_str s(const char* literal) {
    return mnemo_str{literal, std::strlen(literal)};
}
const mnemo_str kAbsent{nullptr, 0};

// One memory to write, owning what its mnemo_memory_input points at.
struct Item {
    std::string id, text, folded, name_space, metadata, session_id, model;
    std::vector<float> vector;
    int64_t ttl_us = 0;
    bool client_id = true;

    mnemo_memory_input input() const {
        mnemo_memory_input in{};
        in.id = s(id);
        in.id_from_client = client_id ? 1 : 0;
        in.text = s(text);
        in.folded_text = s(folded);
        in.name_space = s(name_space);
        in.metadata_json = metadata.empty() ? kAbsent : s(metadata);
        in.session_id = session_id.empty() ? kAbsent : s(session_id);
        if (!vector.empty()) in.vector = mnemo_vector{vector.data(), vector.size()};
        in.embedding_model = model.empty() ? kAbsent : s(model);
        in.ttl_us = ttl_us;
        return in;
    }
};

Item item(std::string id, std::string text) {
    Item it;
    it.id = std::move(id);
    it.text = std::move(text);
    it.folded = core::fold_memory_text(it.text);
    return it;
}

class MemoryTransfer : public TransferTest {
protected:
    void SetUp() override { TransferTest::SetUp(); }

    template <typename Fn>
    static void call(Harness& x, Fn&& fn) {
        auto failure = x.env().backend.call([&](mnemo_error* err) { return fn(x.env().backend.handle(), err); });
        ASSERT_FALSE(failure) << failure->message;
    }

    static void write(Harness& x, const std::string& app, const std::string& user, const std::vector<Item>& items,
                      bool embedder) {
        std::vector<mnemo_memory_input> inputs;
        for (const Item& it : items) inputs.push_back(it.input());
        const mnemo_memory_write_req req{s(app),           s(user), inputs.data(),     inputs.size(),
                                         embedder ? 1 : 0, 0,       x.clock().now_us()};
        call(x, [&](mnemo_backend* b, mnemo_error* err) {
            return x.env().backend.ops().memory_write(b, &req, nullptr, err);
        });
    }

    // The stored memory with its vector; rows empty when absent.
    static Rows get(Harness& x, const std::string& user, const std::string& id, const std::string& app = "shop") {
        Rows rows;
        const mnemo_sink sink = rows_sink(rows);
        const mnemo_memory_get_req req{mnemo_memory_ref{s(app), s(user), s(id), x.clock().now_us()}, 1};
        mnemo_error err{};
        x.env().backend.ops().memory_get(x.env().backend.handle(), &req, &sink, &err);
        return rows;
    }

    static Rows changes(Harness& x, int64_t after_seq) {
        Rows rows;
        const mnemo_sink sink = rows_sink(rows);
        const mnemo_memory_changes_req req{after_seq, 1000};
        call(x, [&](mnemo_backend* b, mnemo_error* err) {
            return x.env().backend.ops().memory_changes(b, &req, &sink, err);
        });
        return rows;
    }

    static std::vector<std::string> pending_ids(Harness& x) {
        Rows rows;
        const mnemo_sink sink = rows_sink(rows);
        const mnemo_memory_pending_req req{0, 1000, x.clock().now_us()};
        call(x, [&](mnemo_backend* b, mnemo_error* err) {
            return x.env().backend.ops().memory_pending(b, &req, &sink, err);
        });
        std::vector<std::string> ids;
        for (const StoredMemory& m : rows.memories) ids.push_back(m.id);
        std::sort(ids.begin(), ids.end());
        return ids;
    }

    // Every status: ready (m7, and the captured cap-1), pending holding its
    // old vector (m1, after a re-embed), pending without one (m2), none (m3,
    // g), failed holding its old vector (m4); one that expires before the
    // export (m5) and one of another app (m6).
    void fill() {
        Item m1 = item("m1", "Prefers aisle seats");
        m1.name_space = "travel";
        m1.metadata = R"({"seat":"aisle","n":[1,2.50,{"x":null}]})";
        m1.session_id = "s1";
        m1.vector = {0.1f, -2.5f, 3e-8f};
        m1.model = "test-model";
        Item m4 = item("m4", "Vegetarian");
        m4.vector = {1.0f, 0.0f, -0.0f};
        write(*h, "shop", "u1", {m1}, false);
        write(*h, "shop", "u2", {m4}, false);
        const mnemo_memory_reembed_req reembed{s("shop"), h->clock().now_us(), 0};
        call(*h, [&](mnemo_backend* b, mnemo_error* err) {
            return h->env().backend.ops().memory_reembed(b, &reembed, nullptr, err);
        });
        Rows stored = get(*h, "u2", "m4");
        ASSERT_EQ(stored.keys.size(), 1u);
        const mnemo_embedding_update failed{stored.keys[0], stored.text_versions[0], MNEMO_EMBEDDING_FAILED,
                                            mnemo_vector{nullptr, 0}, kAbsent};
        const mnemo_memory_embed_req embed{&failed, 1, 0, h->clock().now_us()};
        call(*h, [&](mnemo_backend* b, mnemo_error* err) {
            return h->env().backend.ops().memory_embed(b, &embed, nullptr, err);
        });
        h->clock().advance(kSecond);

        Item m2 = item("m2", "Crème brûlée\nis  great \"really\"");
        write(*h, "shop", "u1", {m2}, true);
        Item m3 = item("m3", "Lives in Lyon");
        m3.ttl_us = 3600 * kSecond;
        Item m5 = item("m5", "Brief");
        m5.ttl_us = 10 * kSecond;
        Item g = item("0190c2f4-1111-7000-8000-000000000001", "Likes  window\tviews");
        g.client_id = false;
        write(*h, "shop", "u1", {m3, m5, g}, false);
        Item m7 = item("m7", "Ready with a model");
        m7.vector = {0.5f, 0.25f, 1e-20f};
        m7.model = "test-model";
        write(*h, "shop", "u3", {m7}, false);
        write(*h, "other", "u1", {item("m6", "Another app")}, false);
        import_captured();
        h->clock().advance(60 * kSecond);
    }

    // A memory captured from an event, as another daemon's export holds it.
    void import_captured() {
        std::ofstream out(file("captured.jsonl"));
        out << R"({"kind":"memory","app":"shop","user":"u1","id":"cap-1","namespace":"events","text":"hello there",)"
            << R"("metadata":{},"session_id":"s1","source":{"session":"s1","seq":3},"embedding":"ready",)"
            << R"("embedding_model":null,"created_at_us":1700000000000001,"updated_at_us":1700000000000002,)"
            << R"("expires_at_us":0,"vector":[0,1,0.333333343]})"
            << "\n";
        out.close();
        core::TransferResult result = core::import_file(h->env(), file("captured.jsonl"));
        ASSERT_FALSE(result.error) << result.error->message;
        EXPECT_EQ(result.counts.memories, 1);
    }

    static std::vector<std::pair<std::string, std::string>> ids() {
        return {{"u1", "m1"},
                {"u1", "m2"},
                {"u1", "m3"},
                {"u2", "m4"},
                {"u1", "m5"},
                {"u3", "m7"},
                {"u1", "0190c2f4-1111-7000-8000-000000000001"},
                {"u1", "cap-1"}};
    }

    // Every memory of the data set as stored in x (absent ones as an empty list).
    static std::vector<std::vector<StoredMemory>> memories(Harness& x) {
        std::vector<std::vector<StoredMemory>> all;
        for (const auto& [user, id] : ids()) all.push_back(get(x, user, id).memories);
        return all;
    }

    // A fresh backend of another kind.
    std::unique_ptr<Harness> fresh_partner() {
        auto other = std::make_unique<Harness>(GetParam() == "memory" ? "sqlite" : "memory");
        other->clock().set(h->clock().now_us());
        return other;
    }
};

void expect_same_memories(const std::vector<std::vector<StoredMemory>>& got,
                          const std::vector<std::vector<StoredMemory>>& want, const std::string& when) {
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i) {
        ASSERT_EQ(got[i].size(), want[i].size()) << when << ", memory " << i;
        if (!want[i].empty()) {
            EXPECT_EQ(got[i][0], want[i][0]) << when;
        }
    }
}

TEST_P(MemoryTransfer, EveryFieldTravelsAndASecondImportChangesNothing) {
    fill();
    const auto before = memories(*h);
    EXPECT_TRUE(before[4].empty()) << "m5 expired before the export";
    const core::TransferCounts exported = export_to(*h, file("a.jsonl"));
    EXPECT_EQ(exported.memories, 7);
    const std::string text = read_all(file("a.jsonl"));
    EXPECT_EQ(text.find(R"("id":"m5")"), std::string::npos) << "an expired memory was exported";
    EXPECT_EQ(text.find(R"("id":"m6")"), std::string::npos) << "another app's memory was exported";

    auto other = fresh_partner();
    EXPECT_EQ(import_into(*other, file("a.jsonl")).memories, 7);
    expect_same_memories(memories(*other), before, "after the import");
    EXPECT_TRUE(get(*other, "u1", "m6", "other").memories.empty()) << "another app's memory was imported";
    EXPECT_EQ(pending_ids(*other), (std::vector<std::string>{"m1", "m2"})) << "pending memories wait for the embedder";
    const Rows feed = changes(*other, 0);
    EXPECT_EQ(feed.memories.size(), 7u) << "every imported memory enters the change feed";

    EXPECT_EQ(import_into(*other, file("a.jsonl")).memories, 7);
    expect_same_memories(memories(*other), before, "after a second import");
    EXPECT_TRUE(changes(*other, feed.feed.last_seq).memories.empty()) << "a second import changed a memory";

    // The way back: the same lines, key order included.
    export_to(*other, file("b.jsonl"));
    EXPECT_EQ(read_all(file("b.jsonl")), text);

    // The folded text came along: a write without id of the same text answers the imported memory.
    Item same = item("0190c2f4-2222-7000-8000-000000000002", "likes WINDOW views");
    same.client_id = false;
    write(*other, "shop", "u1", {same}, false);
    EXPECT_TRUE(get(*other, "u1", same.id).memories.empty()) << "dedupe missed the imported memory";
}

// Through each other kind in turn (transfer_partners) and back into a fresh
// store of this one (from mysql: memory, sqlite, postgres when under test,
// mysql), each hop exporting the same lines.
TEST_P(MemoryTransfer, TheSameLinesTravelThroughEveryOtherBackendAndBack) {
    fill();
    const auto before = memories(*h);
    export_to(*h, file("hop-0.jsonl"));
    const std::string text = read_all(file("hop-0.jsonl"));
    std::vector<std::string> hops = transfer_partners(GetParam());
    hops.push_back(GetParam());
    for (size_t i = 0; i < hops.size(); ++i) {
        const std::string when = "after hop " + std::to_string(i + 1) + " into " + hops[i];
        Harness next(hops[i]);  // a fresh mysql store clears h's: h is not read again
        next.clock().set(h->clock().now_us());
        EXPECT_EQ(import_into(next, file("hop-" + std::to_string(i) + ".jsonl")).memories, 7) << when;
        expect_same_memories(memories(next), before, when);
        export_to(next, file("hop-" + std::to_string(i + 1) + ".jsonl"));
        EXPECT_EQ(read_all(file("hop-" + std::to_string(i + 1) + ".jsonl")), text) << when;
    }
}

TEST_P(MemoryTransfer, ImportPutsBackWhatChangedSinceAndKeepsTheKey) {
    fill();
    const auto before = memories(*h);
    export_to(*h, file("a.jsonl"));
    const Rows m1 = get(*h, "u1", "m1");
    ASSERT_EQ(m1.keys.size(), 1u);

    h->clock().advance(kSecond);
    Item changed = item("m1", "Prefers window seats");
    write(*h, "shop", "u1", {changed}, true);
    const mnemo_memory_delete_req gone{mnemo_memory_ref{s("shop"), s("u1"), s("m3"), h->clock().now_us()}};
    call(*h, [&](mnemo_backend* b, mnemo_error* err) {
        return h->env().backend.ops().memory_delete(b, &gone, nullptr, err);
    });
    write(*h, "shop", "u1", {item("m8", "Written after the export")}, false);

    import_into(*h, file("a.jsonl"));
    expect_same_memories(memories(*h), before, "after the import");
    const Rows back = get(*h, "u1", "m1");
    ASSERT_EQ(back.keys.size(), 1u);
    EXPECT_EQ(back.keys[0], m1.keys[0]) << "a replaced memory keeps its key";
    EXPECT_EQ(back.text_versions[0], m1.text_versions[0] + 2) << "the text changed twice: embeddings made for "
                                                                 "either older text are refused";
    EXPECT_EQ(get(*h, "u1", "m8").memories.size(), 1u) << "a memory the file does not hold stays";
}

TEST_P(MemoryTransfer, MemoriesExpiredByTheImportAreLeftOut) {
    fill();
    export_to(*h, file("a.jsonl"));
    // m3 (1 hour) expires between the export and the import; a live m3 it replaces goes too.
    auto other = fresh_partner();
    write(*other, "shop", "u1", {item("m3", "Lives in Paris")}, false);
    other->clock().advance(2 * 3600 * kSecond);
    import_into(*other, file("a.jsonl"));
    EXPECT_TRUE(get(*other, "u1", "m3").memories.empty());
    EXPECT_EQ(get(*other, "u1", "m1").memories.size(), 1u);
}

TEST_P(MemoryTransfer, BadMemoryLineIsNamedAndNothingIsImported) {
    fill();
    export_to(*h, file("a.jsonl"));
    std::vector<std::string> lines;
    {
        std::ifstream in(file("a.jsonl"));
        for (std::string line; std::getline(in, line);) lines.push_back(line);
    }
    ASSERT_GT(lines.size(), 2u);
    const size_t bad = lines.size() - 1;  // 1-based: the line before the last
    const std::string good = lines[bad - 1];
    lines[bad - 1] = R"({"kind":"memory","app":"shop","user":"u1","id":"mx","namespace":"","text":"x","metadata":{},)"
                     R"("session_id":null,"source":null,"embedding":"ready","embedding_model":null,"created_at_us":1,)"
                     R"("updated_at_us":1,"expires_at_us":0,"vector":[1,"two",3]})";
    auto write_lines = [&](const std::string& path) {
        std::ofstream out(path);
        for (const auto& l : lines) out << l << "\n";
    };
    write_lines(file("bad.jsonl"));
    auto other = fresh_partner();
    core::TransferResult result = core::import_file(other->env(), file("bad.jsonl"));
    ASSERT_TRUE(result.error);
    EXPECT_EQ(result.error->code, core::ErrorCode::InvalidArgument);
    EXPECT_NE(result.error->message.find(file("bad.jsonl") + " line " + std::to_string(bad) + ": field \"vector[1]\""),
              std::string::npos)
        << result.error->message;
    EXPECT_EQ(result.counts.memories, 0);
    EXPECT_TRUE(get(*other, "u1", "m1").memories.empty());

    // Well-formed, but of another dimension than the app's: the backend refuses the batch, naming the lines.
    lines[bad - 1] = good;
    lines.push_back(R"({"kind":"memory","app":"shop","user":"u9","id":"flat","namespace":"","text":"x","metadata":{},)"
                    R"("session_id":null,"source":null,"embedding":"ready","embedding_model":null,"created_at_us":1,)"
                    R"("updated_at_us":1,"expires_at_us":0,"vector":[1,2]})");
    write_lines(file("dims.jsonl"));
    result = core::import_file(other->env(), file("dims.jsonl"));
    ASSERT_TRUE(result.error);
    EXPECT_NE(result.error->message.find("lines 1-" + std::to_string(lines.size())), std::string::npos)
        << result.error->message;
    EXPECT_NE(result.error->message.find("2 dimensions but app shop stores 3"), std::string::npos)
        << result.error->message;
    EXPECT_TRUE(get(*other, "u1", "m1").memories.empty()) << "a refused batch stored something";
}

INSTANTIATE_TEST_SUITE_P(Backends, MemoryTransfer, ::testing::ValuesIn(backends_under_test()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace mnemo::testing
