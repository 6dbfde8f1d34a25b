// Conformance: "A failed write changes nothing" -- every rejected request leaves the session as it was.
#include "harness.h"

namespace mnemo::testing {
namespace {

class BadInput : public Conformance {
protected:
    void SetUp() override {
        h = std::make_unique<Harness>(GetParam(),
                                      "limits: {max_event_bytes: 2KiB, max_batch_events: 4, max_state_bytes: 512}\n");
        create("s1", R"("state":{"cart":1,"app:currency":"EUR","user:lang":"de"})");
        append(
            "s1",
            R"([{"id":"e1","author":"user","content":"hi","usage":{"input_tokens":3}},{"author":"bot","content":"yo"}])");
    }
    // Sends the request, checks its rejection, then that s1 is unchanged.
    void expect_rejected(const std::string& method, const std::string& path, const std::string& body, int status,
                         const std::string& code) {
        SCOPED_TRACE(method + " " + path + " " + body.substr(0, 120));
        auto before = snapshot("s1");
        expect_error(h->call(method, path, body), status, code);
        expect_unchanged("s1", before);
    }
    std::string events() { return session("s1") + "/events"; }
};

TEST_P(BadInput, RejectedAppendsChangeNothing) {
    std::string big(3000, 'x');
    std::string deep = std::string(70, '[') + std::string(70, ']');
    expect_rejected("POST", events(), "{", 400, "invalid_argument");
    expect_rejected("POST", events(), R"({"events":[{"author":"user","content":)" + deep + "}]}", 400,
                    "invalid_argument");
    expect_rejected("POST", events(),
                    R"({"events":[{"author":"user","content":"a","state_delta":{"cart":9}},{"author":2}]})", 400,
                    "invalid_argument");
    expect_rejected("POST", events(), R"({"events":[{"author":"user","role":"boss","content":"a"}]})", 400,
                    "invalid_argument");
    expect_rejected("POST", events(), R"({"events":[]})", 400, "invalid_argument");
    expect_rejected("POST", events(),
                    R"({"events":[{"author":"u","content":1},{"author":"u","content":2},{"author":"u","content":3},
                                  {"author":"u","content":4},{"author":"u","content":5}]})",
                    400, "invalid_argument");
    expect_rejected("POST", events(), R"({"events":[{"author":"user","content":")" + big + R"("}]})", 413,
                    "payload_too_large");
    expect_rejected(
        "POST", events(),
        R"({"events":[{"author":"user","content":"a","state_delta":{"user:big":")" + std::string(600, 'y') + R"("}}]})",
        413, "payload_too_large");
    expect_rejected("POST", events(),
                    R"({"events":[{"author":"user","content":"a","state_delta":{"cart":2}}],"expected_version":1})",
                    409, "conflict");
    expect_rejected("POST", events(), R"({"events":[{"id":"e1","author":"user","content":"changed"}]})", 409,
                    "conflict");
    expect_rejected(
        "POST", events(),
        R"({"events":[{"id":"e1","author":"user","content":"hi"},{"id":"e9","author":"user","content":"new"}]})", 409,
        "conflict");
    expect_rejected("POST", events(),
                    R"({"events":[{"id":"n","author":"user","content":"a"},{"id":"n","author":"user","content":"a"}]})",
                    400, "invalid_argument");
}

TEST_P(BadInput, RejectedRewritesRewindsAndPatchesChangeNothing) {
    expect_rejected("PUT", events(), R"({"events":[{"author":"user"}]})", 400, "invalid_argument");
    expect_rejected("PUT", events(), R"({"events":[{"author":"user","content":"x"}],"expected_version":99})", 409,
                    "conflict");
    expect_rejected("POST", session("s1") + "/rewind", R"({"turns":-1})", 400, "invalid_argument");
    expect_rejected("POST", session("s1") + "/rewind", R"({"turns":1,"expected_version":1})", 409, "conflict");
    expect_rejected("PATCH", session("s1") + "/state", R"({"state_delta":{"cart":null},"expected_version":1})", 409,
                    "conflict");
    expect_rejected("PATCH", session("s1") + "/state", R"({"state_delta":{"cart":2,"app:":1}})", 400,
                    "invalid_argument");
    expect_rejected("PATCH", session("s1") + "/state",
                    R"({"state_delta":{"cart":2,"big":")" + std::string(600, 'z') + R"("}})", 413, "payload_too_large");
    expect_rejected("PATCH", "/v1/apps/shop/state",
                    R"({"state_delta":{"currency":null,"x":)" + std::string(70, '[') + std::string(70, ']') + "}}", 400,
                    "invalid_argument");
    expect_rejected("PATCH", "/v1/apps/shop/users/u1/state",
                    R"({"state_delta":{"lang":null,"big":")" + std::string(600, 'z') + R"("}})", 413,
                    "payload_too_large");
    expect_rejected("DELETE", "/v1/apps/shop/users/u1/state/absent", "", 404, "not_found");
}

TEST_P(BadInput, RejectedSummariesTracksAndPathsChangeNothing) {
    expect_rejected("POST", session("s1") + "/summaries", R"({"text":"s","up_to_seq":3})", 400, "invalid_argument");
    expect_rejected("POST", session("s1") + "/summaries", R"({"up_to_seq":1})", 400, "invalid_argument");
    expect_rejected("POST", session("s1") + "/tracks/t", R"({"payload":1,"timestamp":[]})", 400, "invalid_argument");
    expect_rejected("POST", session("s1") + "/tracks/..", R"({"payload":1})", 400, "invalid_argument");
    expect_rejected("POST", sessions(), R"({"id":"s1","state":{"cart":5}})", 409, "already_exists");
    expect_rejected(
        "POST", sessions(),
        R"({"id":"s2","state":{"app:currency":"USD","x":)" + std::string(70, '[') + std::string(70, ']') + "}}", 400,
        "invalid_argument");
    expect_rejected("DELETE", sessions() + "/s1/", "", 404, "not_found");
    expect_rejected("PATCH", session("s1"), R"({"title":"x"})", 405, "method_not_allowed");
    expect_rejected("DELETE", session("s1") + "?hard=maybe", "", 400, "invalid_argument");
    expect_rejected("POST", session("s1") + "/events?x=%zz", R"({"events":[{"author":"user","content":"a"}]})", 400,
                    "invalid_argument");
}

INSTANTIATE_TEST_SUITE_P(Backends, BadInput, ::testing::ValuesIn(backends_under_test()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace mnemo::testing
