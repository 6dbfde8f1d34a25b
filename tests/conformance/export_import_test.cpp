// Conformance: CONSOLE.md export(app, path) / import(path) -- a rich data set
// exported from one backend and imported into a fresh one of another answers
// every GET of docs/api.md byte for byte; a second import changes nothing; soft-
// deleted and expired items stay out; a malformed line is named by number.
#include "transfer_fixture.h"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace mnemo::testing {
namespace {

class ExportImport : public TransferTest {
protected:
    static std::string lanes() { return "/v1/apps/shop/lanes"; }

    void ok(const Reply& reply, int status = 200) { EXPECT_EQ(reply.status, status) << reply.body; }

    // Sessions with title, parent, metadata and TTL; events with ids,
    // invocation ids, tool calls, media, filter keys, usage and odd text;
    // a rewind so seqs have gaps; state of all three scopes; several
    // summaries per filter key; two tracks; lanes with their flags set.
    void fill() {
        create("s1", R"("title":"Ünïcode ☃ title","metadata":{"channel":"web","n":[1,2.50,{"x":null}]},)"
                     R"("ttl_seconds":86400,"state":{"cart":1,"app:currency":"EUR","user:lang":"de"})");
        append(
            "s1",
            R"([{"id":"e1","invocation_id":"inv-1","author":"user","content":{"text":"hi \"there\"\n\ttab \u0001 ✓"},)"
            R"("usage":{"input_tokens":10,"output_tokens":20,"cost_usd":0.0003},"filter_key":"a",)"
            R"("metadata":{"k":"v"}},)"
            R"({"author":"assistant","content":"plain string","tool_calls":[{"name":"grep","arguments":{"q":"x"},)"
            R"("result_summary":"found","status":"ok"}],"media":[{"kind":"image","path":"/data/a.png"}],)"
            R"("state_delta":{"cart":2,"temp:draft":"x","user:seen":true}},)"
            R"({"author":"user","content":{"text":"undo me"},"filter_key":"a/b"},)"
            R"({"author":"assistant","content":{"text":"undone too"}}])");
        ok(h->post(session("s1") + "/rewind", R"({"turns":1})"));
        append(
            "s1",
            R"([{"id":"e5","author":"user","content":{ "spaced" : [ 1 , 2 ] },"filter_key":"a"},)"
            R"({"author":"assistant","content":{"text":"after rewind"},"usage":{"input_tokens":3,"total_tokens":9}}])");
        ok(h->post(session("s1") + "/summaries", R"({"text":"first","up_to_seq":1})"), 201);
        ok(h->post(session("s1") + "/summaries", R"({"text":"second"})"), 201);
        ok(h->post(session("s1") + "/summaries", R"({"filter_key":"a","text":"branch a","up_to_seq":2})"), 201);
        ok(h->post(session("s1") + "/tracks/tool-log", R"({"payload":{"step":1}})"), 201);
        ok(h->post(session("s1") + "/tracks/tool-log", R"({"payload":[true,"two"]})"), 201);
        ok(h->post(session("s1") + "/tracks/other", R"({"payload":"x"})"), 201);
        create("s2", R"("parent_id":"s1","metadata":{"platform":"telegram"})");
        say("s2", "second session");
        ok(h->post(sessions("shop", "u2"), R"({"id":"s3","state":{"k":"v"}})"), 201);
        ok(h->patch("/v1/apps/shop/state", R"({"state_delta":{"motd":"hello","flags":{"a":1}}})"));
        ok(h->patch("/v1/apps/shop/users/u2/state", R"({"state_delta":{"tier":"gold"}})"));
        fill_lanes();
        fill_dead_items();
    }

    void fill_lanes() {
        ok(h->post(lanes() + "/tg:dm:1/resolve", R"({"user":"u3","platform":"telegram","chat_type":"dm"})"));
        ok(h->post(lanes() + "/tg:dm:1/reset", ""));
        ok(h->post(lanes() + "/slack:group:C1/resolve", R"({"user":"u3","platform":"slack","chat_type":"group"})"));
        ok(h->post(lanes() + "/slack:group:C1/suspend", ""));
        ok(h->post(lanes() + "/web:x/resolve", R"({"user":"u1"})"));
        ok(h->post(lanes() + "/web:x/resume-pending", R"({"reason":"restart_timeout"})"));
    }

    // A soft-deleted session and one that expires: neither is exported.
    void fill_dead_items() {
        create("gone");
        say("gone", "deleted");
        ok(h->del(session("gone")), 204);
        create("brief", R"("ttl_seconds":10)");
        say("brief", "expires");
        h->clock().advance(60 * kSecond);
    }

    // Every GET of docs/api.md over the data set, as "path -> status body" lines.
    std::string answers(Harness& x) {
        std::ostringstream out;
        auto get = [&](const std::string& path) {
            // Error messages are worded by each backend; the code is the contract.
            Reply reply = x.get(path);
            out << path << " -> " << reply.status << " " << (reply.status < 400 ? reply.body : reply.error_code())
                << "\n";
        };
        for (const auto& [user, id] : std::vector<std::pair<std::string, std::string>>{
                 {"u1", "s1"}, {"u1", "s2"}, {"u2", "s3"}, {"u1", "gone"}, {"u1", "brief"}}) {
            const std::string path = session(id, "shop", user);
            get(path);
            get(path + "?from_checkpoint=true&filter_key=a");
            get(path + "?num_recent_events=2");
            get(path + "/events");
            get(path + "/events?limit=2&after_seq=1");
            get(path + "/summaries");
            get(path + "/tracks/tool-log");
            get(path + "/tracks/other?after_seq=0&limit=5");
        }
        for (const std::string user : {"u1", "u2", "u3"}) {
            get(sessions("shop", user));
            get("/v1/apps/shop/users/" + user + "/state");
        }
        get("/v1/apps/shop/sessions");
        get("/v1/apps/shop/sessions?limit=2");
        get("/v1/apps/shop/state");
        get(lanes());
        for (const std::string lane : {"tg:dm:1", "slack:group:C1", "web:x"}) get(lanes() + "/" + lane);
        // The sessions lanes created, by their ids.
        for (const std::string lane : {"tg:dm:1", "slack:group:C1", "web:x"}) {
            Reply reply = x.get(lanes() + "/" + lane);
            if (reply.status == 200) get(session(reply.string("/session_id"), "shop", reply.string("/user")));
        }
        return out.str();
    }

};

// Line by line, so a failure shows the one GET that differs.
void expect_same(const std::string& got, const std::string& want, const std::string& when) {
    std::istringstream got_lines(got), want_lines(want);
    std::string a, b;
    while (std::getline(want_lines, b)) {
        std::getline(got_lines, a);
        EXPECT_EQ(a, b) << when;
    }
    EXPECT_FALSE(std::getline(got_lines, a)) << when << ": more answers than before";
}

void expect_counts(const core::TransferCounts& got, const core::TransferCounts& want) {
    EXPECT_EQ(got.sessions, want.sessions);
    EXPECT_EQ(got.events, want.events);
    EXPECT_EQ(got.state, want.state);
    EXPECT_EQ(got.summaries, want.summaries);
    EXPECT_EQ(got.tracks, want.tracks);
    EXPECT_EQ(got.lanes, want.lanes);
    EXPECT_EQ(got.memories, want.memories);
}

// Source -> fresh partner (every other backend: transfer_partners), twice,
// then partner -> fresh source backend: every answer stays the same.
TEST_P(ExportImport, AnotherBackendAnswersEveryGetTheSameAndBack) {
    fill();
    const std::string before = answers(*h);
    const int64_t now = h->clock().now_us();
    const core::TransferCounts exported = export_to(*h, file("a.jsonl"));
    // s1, s2, s3 and the lane sessions (the one the reset left stays live).
    EXPECT_EQ(exported.sessions, 7);
    EXPECT_EQ(exported.events, 4 + 1);
    EXPECT_EQ(exported.summaries, 3);
    EXPECT_EQ(exported.tracks, 3);
    EXPECT_EQ(exported.lanes, 3);
    const std::string text = read_all(file("a.jsonl"));
    EXPECT_EQ(text.find(R"("id":"gone")"), std::string::npos) << "a soft-deleted session was exported";
    EXPECT_EQ(text.find(R"("id":"brief")"), std::string::npos) << "an expired session was exported";

    for (const std::string& partner : transfer_partners(GetParam())) {
        SCOPED_TRACE("partner " + partner);
        auto other = std::make_unique<Harness>(partner);
        other->clock().set(now);
        expect_counts(import_into(*other, file("a.jsonl")), exported);
        expect_same(answers(*other), before, "after the import");
        expect_counts(import_into(*other, file("a.jsonl")), exported);
        expect_same(answers(*other), before, "after a second import");

        expect_counts(export_to(*other, file("b.jsonl")), exported);
        other.reset();
        h = std::make_unique<Harness>(GetParam());
        h->clock().set(now);
        expect_counts(import_into(*h, file("b.jsonl")), exported);
        expect_same(answers(*h), before, "after the way back");
    }
}

TEST_P(ExportImport, ImportReplacesTheSameItemsAndKeepsOthers) {
    fill();
    const int64_t version = h->get(session("s1")).integer("/session/version");
    ASSERT_FALSE(core::export_app(h->env(), "shop", file("a.jsonl")).error);
    // Changes after the export: an import puts the exported items back.
    say("s1", "after the export");
    ok(h->patch("/v1/apps/shop/state", R"({"state_delta":{"motd":"changed"}})"));
    ok(h->post(lanes() + "/tg:dm:1/suspend", ""));
    import_into(*h, file("a.jsonl"));
    EXPECT_EQ(h->get(session("s1")).integer("/session/version"), version);
    EXPECT_EQ(h->get("/v1/apps/shop/state").body, R"({"state":{"currency":"EUR","flags":{"a":1},"motd":"hello"}})");
    EXPECT_FALSE(h->get(lanes() + "/tg:dm:1").boolean("/suspended"));
    // The event appended after the export (seq 7) is not the export's: it stays.
    EXPECT_EQ(h->get(session("s1") + "/events?after_seq=6").size("/events"), 1u);
}

TEST_P(ExportImport, BadLineIsNamedAndNothingIsImported) {
    fill();
    ASSERT_FALSE(core::export_app(h->env(), "shop", file("a.jsonl")).error);
    std::ifstream in(file("a.jsonl"));
    std::string line;
    std::vector<std::string> lines;
    while (std::getline(in, line)) lines.push_back(line);
    ASSERT_GT(lines.size(), 3u);
    size_t bad = lines.size() - 1;
    lines[bad - 1] = R"({"kind":"track","app":"shop","user":"u1","session_id":"s1","track":"t","seq":"one",)"
                     R"("payload":1,"timestamp_us":5})";
    std::ofstream outf(file("bad.jsonl"));
    for (const auto& l : lines) outf << l << "\n";
    outf.close();

    reconfigure("");
    core::TransferResult result = core::import_file(h->env(), file("bad.jsonl"));
    ASSERT_TRUE(result.error);
    EXPECT_EQ(result.error->code, core::ErrorCode::InvalidArgument);
    EXPECT_NE(result.error->message.find(file("bad.jsonl") + " line " + std::to_string(bad) + ": field \"seq\""),
              std::string::npos)
        << result.error->message;
    EXPECT_EQ(result.counts.sessions, 0);
    EXPECT_EQ(h->get(session("s1")).status, 404);
    EXPECT_EQ(h->get("/v1/apps/shop/state").body, R"({"state":{}})");

    core::TransferResult missing = core::import_file(h->env(), file("absent.jsonl"));
    ASSERT_TRUE(missing.error);
    EXPECT_NE(missing.error->message.find(file("absent.jsonl")), std::string::npos) << missing.error->message;
}

INSTANTIATE_TEST_SUITE_P(Backends, ExportImport, ::testing::ValuesIn(backends_under_test()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace mnemo::testing
