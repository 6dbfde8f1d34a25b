// Shared by the memories conformance tests: a fixture that skips a backend
// without memory ops, and the paths and small readers those tests use.
#pragma once

#include "harness.h"

#include <string>
#include <vector>

namespace mnemo::testing {

class Memories : public Conformance {
protected:
    // Every backend keeps memories: one that stopped would fail here, not skip.
    void SetUp() override {
        Conformance::SetUp();
        require_memories();
    }
    void require_memories() {
        ASSERT_TRUE(h->has_memories()) << "the storage plugin '" << GetParam() << "' lost its memory ops";
    }
    void reconfigure(const std::string& extra_yaml) {
        Conformance::reconfigure(extra_yaml);
        require_memories();
    }

    static std::string memories(const std::string& user = "u1", const std::string& app = "shop") {
        return "/v1/apps/" + app + "/users/" + user + "/memories";
    }
    static std::string memory(const std::string& id, const std::string& user = "u1", const std::string& app = "shop") {
        return memories(user, app) + "/" + id;
    }
    static std::string recall_path(const std::string& app = "shop") { return "/v1/apps/" + app + "/memories/search"; }

    // Writes {"memories": items_json} for `user` and checks the 200.
    Reply write(const std::string& items_json, const std::string& user = "u1", const std::string& app = "shop") {
        auto reply = h->post(memories(user, app), R"({"memories":)" + items_json + "}");
        EXPECT_EQ(reply.status, 200) << reply.body;
        return reply;
    }
    // POST recall with `body`; checks the 200.
    Reply recall(const std::string& body, const std::string& app = "shop") {
        auto reply = h->post(recall_path(app), body);
        EXPECT_EQ(reply.status, 200) << reply.body;
        return reply;
    }
    // The ids of `pointer`'s array of memories, in order.
    static std::vector<std::string> ids(const Reply& reply, const std::string& pointer = "/memories") {
        std::vector<std::string> out;
        size_t n = reply.size(pointer);
        for (size_t i = 0; i < n; ++i) out.push_back(reply.string(pointer + "/" + std::to_string(i) + "/id"));
        return out;
    }
    static double number(const Reply& reply, std::string_view pointer) {
        double out = -999;
        EXPECT_EQ(reply.json().at_pointer(pointer).get_double().get(out), simdjson::SUCCESS)
            << pointer << " in " << reply.body;
        return out;
    }
    // Every memory `user` has, newest first (one page of 1000).
    std::vector<std::string> listed(const std::string& user = "u1", const std::string& app = "shop") {
        auto reply = h->get(memories(user, app) + "?limit=1000");
        EXPECT_EQ(reply.status, 200) << reply.body;
        return ids(reply);
    }
};

}  // namespace mnemo::testing
