// The descriptors: the memory plugin and the two loader-test fixtures.
#include "memory_fixture.h"

#include "core/plugin_host.h"

#include <cstddef>
#include <dlfcn.h>
#include <gmock/gmock.h>

#include <string>
#include <utility>
#include <vector>

namespace mnemo::memory_test {
namespace {

TEST(MemoryPluginDescriptor, DeclaresNameAbiAndCapabilities) {
    Plugin plugin = load_plugin("mnemo_memory.so");
    ASSERT_NE(plugin.descriptor, nullptr) << dlerror();
    EXPECT_EQ(plugin.descriptor->abi_version, static_cast<uint32_t>(MNEMO_PLUGIN_ABI_VERSION));
    EXPECT_STREQ(plugin.descriptor->name, "memory");
    EXPECT_EQ(plugin.descriptor->capabilities, MNEMO_CAP_NONBLOCKING | MNEMO_CAP_SOFT_DELETE | MNEMO_CAP_SEARCH);
    EXPECT_NE(plugin.descriptor->version, nullptr);
}

TEST(MemoryPluginDescriptor, EveryOperationIsPresent) {
    Plugin plugin = load_plugin("mnemo_memory.so");
    ASSERT_NE(plugin.descriptor, nullptr);
    const mnemo_storage_ops* ops = plugin.descriptor->ops;
    ASSERT_EQ(ops->ops_size, sizeof(mnemo_storage_ops));
    const bool present[] = {
        ops->open != nullptr,
        ops->close != nullptr,
        ops->ping != nullptr,
        ops->stats != nullptr,
        ops->session_create != nullptr,
        ops->session_get != nullptr,
        ops->session_list != nullptr,
        ops->session_delete != nullptr,
        ops->user_purge != nullptr,
        ops->events_append != nullptr,
        ops->events_list != nullptr,
        ops->events_rewrite != nullptr,
        ops->events_rewind != nullptr,
        ops->state_patch != nullptr,
        ops->state_get != nullptr,
        ops->state_delete != nullptr,
        ops->summary_put != nullptr,
        ops->summary_list != nullptr,
        ops->track_append != nullptr,
        ops->track_list != nullptr,
        ops->lane_get != nullptr,
        ops->lane_write != nullptr,
        ops->lane_list != nullptr,
        ops->lane_recover != nullptr,
        ops->sweep_step != nullptr,
        ops->finalize_list != nullptr,
        ops->finalize_done != nullptr,
        ops->search != nullptr,
        ops->export_step != nullptr,
        ops->import_records != nullptr,
        ops->finalize_done_batch != nullptr,
        ops->memory_write != nullptr,
        ops->memory_get != nullptr,
        ops->memory_patch != nullptr,
        ops->memory_delete != nullptr,
        ops->memory_list != nullptr,
        ops->memory_search != nullptr,
        ops->memory_keys != nullptr,
        ops->memory_candidates != nullptr,
        ops->memory_changes != nullptr,
        ops->memory_embed != nullptr,
        ops->memory_pending != nullptr,
        ops->memory_reembed != nullptr,
        ops->memory_count != nullptr,
        ops->session_extracted != nullptr,
        ops->app_list != nullptr,
        ops->user_list != nullptr,
        ops->session_tracks != nullptr,
    };
    // events_append_async and write_async are optional and never called on a non-blocking backend;
    // check (--check-config's look at a store) has nothing to reach in memory.
    EXPECT_EQ(ops->events_append_async, nullptr);
    EXPECT_EQ(ops->write_async, nullptr);
    EXPECT_EQ(ops->check, nullptr);
    static_assert(
        sizeof present / sizeof present[0] + 3 == (sizeof(mnemo_storage_ops) - sizeof(size_t)) / sizeof(void (*)()),
        "every operation of the table is listed here");
    for (size_t i = 0; i < sizeof present / sizeof present[0]; ++i)
        EXPECT_TRUE(present[i]) << "operation " << i << " is NULL";
}

TEST(MemoryPluginDescriptor, OpensPingsAndCloses) {
    Plugin plugin = load_plugin("mnemo_memory.so");
    mnemo_backend* backend = nullptr;
    mnemo_error err{};
    ASSERT_EQ(plugin.descriptor->ops->open(&mnemo::core::plugin_host(), "{\"anything\": 1}", &backend, &err), MNEMO_OK);
    ASSERT_NE(backend, nullptr);
    EXPECT_EQ(plugin.descriptor->ops->ping(backend, &err), MNEMO_OK);
    plugin.descriptor->ops->close(backend);
}

TEST(MemoryPluginDescriptor, RefusesToOpenWithoutTheHostsServices) {
    Plugin plugin = load_plugin("mnemo_memory.so");
    mnemo_backend* backend = nullptr;
    mnemo_error err{};
    EXPECT_EQ(plugin.descriptor->ops->open(nullptr, "{}", &backend, &err), MNEMO_E_INVALID);
    EXPECT_EQ(backend, nullptr);
    EXPECT_THAT(err.message, ::testing::HasSubstr("host's services"));
}

// The host table is the word rules of core/search_words.h, as a plugin sees them.
TEST(HostServices, AnswerWithTheHostsWordRules) {
    const mnemo_host& host = mnemo::core::plugin_host();
    EXPECT_EQ(host.host_size, sizeof(mnemo_host));
    std::string folded;
    host.fold(
        s("Mädchen"), [](void* ctx, mnemo_str out) { static_cast<std::string*>(ctx)->assign(out.ptr, out.len); },
        &folded);
    EXPECT_EQ(folded, "madchen");
    std::vector<std::string> words;
    const std::string text = "red-car, 東京!";
    std::pair<std::vector<std::string>*, const std::string*> split{&words, &text};
    host.words(
        s(text),
        [](void* ctx, size_t begin, size_t end) {
            auto* self = static_cast<std::pair<std::vector<std::string>*, const std::string*>*>(ctx);
            self->first->push_back(self->second->substr(begin, end - begin));
        },
        &split);
    EXPECT_EQ(words, (std::vector<std::string>{"red", "car", "東京"}));
    EXPECT_EQ(host.has_cjk(s(text)), 1);
    EXPECT_EQ(host.has_cjk(s("plain")), 0);

    std::vector<std::string> terms;
    host.terms(
        s("Running runs, 東京 Crème"),
        [](void* ctx, size_t, size_t, mnemo_str term) {
            static_cast<std::vector<std::string>*>(ctx)->emplace_back(term.ptr, term.len);
        },
        &terms);
    EXPECT_EQ(terms, (std::vector<std::string>{"run", "run", "creme"})) << "folded, stemmed; CJK words have none";

    mnemo_query* query = host.query_parse(s("  Red CARS the red /etc/hosts "), MNEMO_MATCH_ANY);
    ASSERT_EQ(host.query_kind(query), MNEMO_QUERY_TERMS);
    EXPECT_EQ(host.query_match(query), MNEMO_MATCH_ANY);
    ASSERT_EQ(host.query_terms(query), 4u) << "distinct, stop words left out";
    mnemo_str second = host.query_term(query, 1);
    EXPECT_EQ(std::string(second.ptr, second.len), "car");
    ASSERT_EQ(host.query_clauses(query), 1u);
    mnemo_str clause = host.query_clause(query, 0);
    EXPECT_EQ(std::string(clause.ptr, clause.len), "/etc/hosts");
    EXPECT_EQ(host.query_matches(query, s("a car")), 1) << "any term";
    EXPECT_EQ(host.query_matches(query, s("a carpet")), 0);
    host.query_free(query);
    mnemo_query* all = host.query_parse(s("red cars"), MNEMO_MATCH_ALL);
    EXPECT_EQ(host.query_match(all), MNEMO_MATCH_ALL);
    EXPECT_EQ(host.query_matches(all, s("a car, red")), 1);
    EXPECT_EQ(host.query_matches(all, s("a car")), 0) << "every term";
    host.query_free(all);

    mnemo_query* recent = host.query_parse(s("   "), MNEMO_MATCH_ANY);
    EXPECT_EQ(host.query_kind(recent), MNEMO_QUERY_RECENT);
    host.query_free(recent);
}

TEST(HostServices, CompareAMetadataMemberByJsonValue) {
    const mnemo_host& host = mnemo::core::plugin_host();
    ASSERT_GE(host.host_size, offsetof(mnemo_host, json_member_equals) + sizeof(host.json_member_equals));
    const char* metadata = R"({"tag": {"b": 2, "a": [1, "x"]}, "n": 1.0})";
    EXPECT_EQ(host.json_member_equals(s(metadata), s("n"), s("1")), 1) << "numbers compare by value";
    EXPECT_EQ(host.json_member_equals(s(metadata), s("tag"), s(R"({"a": [1.0, "x"], "b": 2})")), 1)
        << "objects compare regardless of key order";
    EXPECT_EQ(host.json_member_equals(s(metadata), s("n"), s(R"("1")")), 0) << "a string is no number";
    EXPECT_EQ(host.json_member_equals(s(metadata), s("missing"), s("1")), 0);
    EXPECT_EQ(host.json_member_equals(s("[1]"), s("0"), s("1")), 0) << "an array has no members";
    EXPECT_EQ(host.json_member_equals(s("{not json"), s("n"), s("1")), 0);
}

// A plugin's options reach it as a JSON object it reads through the host.
TEST(HostServices, ListTheMembersOfAJsonObjectWithTheirKinds) {
    const mnemo_host& host = mnemo::core::plugin_host();
    ASSERT_GE(host.host_size, offsetof(mnemo_host, json_members) + sizeof(host.json_members));
    std::vector<std::string> seen;
    auto member = [](void* ctx, mnemo_str key, int kind, mnemo_str text, int64_t number) {
        static_cast<std::vector<std::string>*>(ctx)->push_back(
            std::string(key.ptr, key.len) + " " + std::to_string(kind) + " " + std::string(text.ptr, text.len) + " " +
            std::to_string(number));
    };
    const char* options = R"({"path": "a\"b", "readers": -4, "tls": true, "f": 1.5, "n": null, "o": {"x": 1}})";
    ASSERT_EQ(host.json_members(s(options), member, &seen), 1);
    EXPECT_EQ(seen,
              (std::vector<std::string>{"path 0 a\"b 0", "readers 1  -4", "tls 2  1", "f 3  0", "n 3  0", "o 3  0"}));
    seen.clear();
    EXPECT_EQ(host.json_members(s("[1]"), member, &seen), 0) << "an array has no members";
    EXPECT_EQ(host.json_members(s(R"({"a": 1)"), member, &seen), 0) << "invalid JSON";
    EXPECT_EQ(host.json_members(s("9223372036854775808"), member, &seen), 0);
    EXPECT_TRUE(seen.empty()) << "nothing is reported of a text that is no valid object";
}

TEST(MemoryPluginDescriptor, OnlyTheEntrySymbolIsExported) {
    Plugin plugin = load_plugin("mnemo_memory.so");
    ASSERT_NE(plugin.handle, nullptr);
    EXPECT_EQ(dlsym(plugin.handle, "_ZN5mnemo6memory11storage_opsEv"), nullptr);
}

TEST(LoaderFixtures, NoEntryPluginLoadsButHasNoEntrySymbol) {
    void* handle = dlopen(MNEMO_BUILD_PLUGIN_DIR "/mnemo_no_entry.so", RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(handle, nullptr) << dlerror();
    EXPECT_NE(dlsym(handle, "mnemo_no_entry_marker"), nullptr);
    EXPECT_EQ(dlsym(handle, MNEMO_PLUGIN_ENTRY_SYMBOL), nullptr);
}

TEST(LoaderFixtures, BadAbiPluginReturnsVersion999WithAValidTable) {
    Plugin plugin = load_plugin("mnemo_bad_abi.so");
    ASSERT_NE(plugin.descriptor, nullptr) << dlerror();
    EXPECT_EQ(plugin.descriptor->abi_version, 999u);
    EXPECT_STREQ(plugin.descriptor->name, "bad_abi");
    ASSERT_NE(plugin.descriptor->ops, nullptr);
    EXPECT_EQ(plugin.descriptor->ops->ops_size, sizeof(mnemo_storage_ops));
    EXPECT_NE(plugin.descriptor->ops->open, nullptr);
}

}  // namespace
}  // namespace mnemo::memory_test
