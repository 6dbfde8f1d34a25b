#include "memories_fixture.h"

#include <cctype>

namespace mnemo::memories_test {

namespace {

mnemo_str opt(const Opt& v) {
    return v ? s(*v) : absent();
}

// The dedupe key as mnemod makes it, for the ASCII texts of these tests:
// lower case, runs of white space as one space, trimmed.
std::string fold(const std::string& text) {
    std::string folded;
    for (char c : text) {
        if (std::isspace(static_cast<unsigned char>(c))) {
            if (!folded.empty() && folded.back() != ' ') folded += ' ';
        } else {
            folded += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        }
    }
    while (!folded.empty() && folded.back() == ' ') folded.pop_back();
    return folded;
}

// Item inputs with the strings they point at.
struct Inputs {
    // Owns a copy of the items, so a braced temporary may be passed.
    explicit Inputs(std::vector<Item> items) : source(std::move(items)) {
        for (const Item& item : source) folded.push_back(item.text ? fold(*item.text) : std::string());
        // mnemod gives every item without a client id a fresh UUIDv7; a counter does here.
        static int64_t generated = 0;
        for (size_t i = 0; i < source.size(); ++i) generated_ids.push_back("gen-" + std::to_string(++generated));
        for (size_t i = 0; i < source.size(); ++i) inputs.push_back(input(source[i], folded[i], generated_ids[i]));
    }
    static mnemo_memory_input input(const Item& item, const std::string& folded_text, const std::string& generated_id) {
        mnemo_memory_input in{};
        in.id = s(item.id.empty() ? generated_id : item.id);
        in.id_from_client = item.id.empty() ? 0 : 1;
        in.text = opt(item.text);
        in.folded_text = item.text ? s(folded_text) : absent();
        in.name_space = opt(item.name_space);
        in.metadata_json = opt(item.metadata);
        in.session_id = opt(item.session_id);
        if (!item.vector.empty()) in.vector = mnemo_vector{item.vector.data(), item.vector.size()};
        in.embedding_model = opt(item.model);
        in.ttl_us = item.ttl_us;
        return in;
    }
    const std::vector<Item> source;
    std::vector<std::string> folded, generated_ids;
    std::vector<mnemo_memory_input> inputs;
};

// A filter's views, alive as long as this object.
struct FilterView {
    explicit FilterView(const Filter& f, int64_t now_us) {
        for (const auto& [k, v] : f.metadata) {
            keys.push_back(s(k));
            values.push_back(s(v));
        }
        view = mnemo_memory_filter{s(f.app),      opt(f.user), opt(f.name_space),  opt(f.session_id),   keys.data(),
                                   values.data(), keys.size(), f.created_after_us, f.created_before_us, now_us};
    }
    std::vector<mnemo_str> keys, values;
    mnemo_memory_filter view{};
};

}  // namespace

Item text(std::string value) {
    Item item;
    item.text = std::move(value);
    return item;
}
Item no_text() {
    return Item{};
}

int MemoriesTest::write_status(const char* user, const std::vector<Item>& items, Rows* answers, mnemo_error* err,
                               int64_t at_us) {
    Inputs inputs(items);
    mnemo_memory_write_req req{s(app),   s(user),    inputs.inputs.data(), inputs.inputs.size(),
                               embedder, dimensions, at_us ? at_us : now};
    Recorder sink;
    mnemo_error local{};
    int rc = ops().memory_write(backend, &req, sink.get(), err ? err : &local);
    if (answers) *answers = sink.out();
    return rc;
}

Rows MemoriesTest::write(const char* user, const std::vector<Item>& items, int64_t at_us) {
    Rows answers;
    mnemo_error err{};
    EXPECT_EQ(write_status(user, items, &answers, &err, at_us), MNEMO_OK) << err.message;
    return answers;
}

std::optional<MemoryRow> MemoriesTest::get(const char* user, const std::string& id, int64_t at_us, bool with_vector) {
    mnemo_memory_get_req req{{s(app), s(user), s(id), at_us ? at_us : now}, with_vector ? 1 : 0};
    Recorder sink;
    mnemo_error err{};
    int rc = ops().memory_get(backend, &req, sink.get(), &err);
    if (rc == MNEMO_E_NOT_FOUND) return std::nullopt;
    EXPECT_EQ(rc, MNEMO_OK) << err.message;
    Rows out = sink.out();
    EXPECT_EQ(out.memories.size(), 1u);
    return out.memories.empty() ? std::nullopt : std::optional<MemoryRow>(out.memories[0]);
}

int MemoriesTest::patch_status(const char* user, const std::string& id, const Item& fields, Rows* answers,
                               mnemo_error* err, int64_t at_us) {
    Inputs inputs({fields});
    mnemo_memory_patch_req req{{s(app), s(user), s(id), at_us ? at_us : now}, inputs.inputs[0], embedder, dimensions};
    Recorder sink;
    mnemo_error local{};
    int rc = ops().memory_patch(backend, &req, sink.get(), err ? err : &local);
    if (answers) *answers = sink.out();
    return rc;
}

int MemoriesTest::remove(const char* user, const std::string& id, int64_t at_us) {
    mnemo_memory_delete_req req{{s(app), s(user), s(id), at_us ? at_us : now}};
    mnemo_error err{};
    return ops().memory_delete(backend, &req, nullptr, &err);
}

Rows MemoriesTest::list(const char* user, int64_t limit, int64_t cursor_updated, const std::string& cursor_id,
                        Opt name_space, Opt session_id, int64_t at_us) {
    mnemo_memory_list_req req{s(app), s(user),        opt(name_space), opt(session_id),
                              limit,  cursor_updated, s(cursor_id),    at_us ? at_us : now,
                              nullptr, nullptr,       0,               0};
    Recorder sink;
    mnemo_error err{};
    EXPECT_EQ(ops().memory_list(backend, &req, sink.get(), &err), MNEMO_OK) << err.message;
    return sink.out();
}

Rows MemoriesTest::search(const Filter& filter, const std::string& q, int64_t limit, int64_t at_us, int match) {
    FilterView view(filter, at_us ? at_us : now);
    mnemo_memory_search_req req{view.view, s(q), limit, match};
    Recorder sink;
    mnemo_error err{};
    EXPECT_EQ(ops().memory_search(backend, &req, sink.get(), &err), MNEMO_OK) << err.message;
    return sink.out();
}

Rows MemoriesTest::keys(const Filter& filter, const std::vector<int64_t>& wanted, int64_t at_us) {
    FilterView view(filter, at_us ? at_us : now);
    mnemo_memory_keys_req req{view.view, wanted.data(), wanted.size(), 1};
    Recorder sink;
    mnemo_error err{};
    EXPECT_EQ(ops().memory_keys(backend, &req, sink.get(), &err), MNEMO_OK) << err.message;
    return sink.out();
}

Rows MemoriesTest::candidates(const Filter& filter, int64_t limit, int64_t at_us) {
    FilterView view(filter, at_us ? at_us : now);
    mnemo_memory_candidates_req req{view.view, limit};
    Recorder sink;
    mnemo_error err{};
    EXPECT_EQ(ops().memory_candidates(backend, &req, sink.get(), &err), MNEMO_OK) << err.message;
    return sink.out();
}

Rows MemoriesTest::changes(int64_t after_seq, int64_t limit) {
    mnemo_memory_changes_req req{after_seq, limit};
    Recorder sink;
    mnemo_error err{};
    EXPECT_EQ(ops().memory_changes(backend, &req, sink.get(), &err), MNEMO_OK) << err.message;
    Rows out = sink.out();
    EXPECT_EQ(out.order.find('C'), out.memories.size()) << "the feed's result after its rows: " << out.order;
    return out;
}

Rows MemoriesTest::embed(const std::vector<mnemo_embedding_update>& items, int64_t at_us) {
    mnemo_memory_embed_req req{items.data(), items.size(), dimensions, at_us ? at_us : now};
    Recorder sink;
    mnemo_error err{};
    EXPECT_EQ(ops().memory_embed(backend, &req, sink.get(), &err), MNEMO_OK) << err.message;
    Rows out = sink.out();
    EXPECT_EQ(out.order, "C") << "the stored count, always";
    return out;
}

Rows MemoriesTest::pending(int64_t after_key, int64_t limit, int64_t at_us) {
    mnemo_memory_pending_req req{after_key, limit, at_us ? at_us : now};
    Recorder sink;
    mnemo_error err{};
    EXPECT_EQ(ops().memory_pending(backend, &req, sink.get(), &err), MNEMO_OK) << err.message;
    return sink.out();
}

Rows MemoriesTest::reembed(const char* app_name, int64_t at_us, int64_t new_dimensions) {
    mnemo_memory_reembed_req req{s(app_name), at_us ? at_us : now, new_dimensions};
    Recorder sink;
    mnemo_error err{};
    EXPECT_EQ(ops().memory_reembed(backend, &req, sink.get(), &err), MNEMO_OK) << err.message;
    return sink.out();
}

mnemo_memory_count_result MemoriesTest::count(const char* app_name, const char* user, int64_t at_us) {
    mnemo_memory_count_req req{app_name ? s(app_name) : absent(), user ? s(user) : absent(), at_us ? at_us : now};
    Recorder sink;
    mnemo_error err{};
    EXPECT_EQ(ops().memory_count(backend, &req, sink.get(), &err), MNEMO_OK) << err.message;
    Rows out = sink.out();
    EXPECT_EQ(out.order, "C") << "the counts, always";
    return out.memory_count;
}

Rows MemoriesTest::sweep(int64_t at_us, int64_t limit, int64_t purge_before_us) {
    mnemo_sweep_req req{at_us, limit, purge_before_us, 0, 0};
    Recorder sink;
    mnemo_error err{};
    EXPECT_EQ(ops().sweep_step(backend, &req, sink.get(), &err), MNEMO_OK) << err.message;
    return sink.out();
}

}  // namespace mnemo::memories_test
