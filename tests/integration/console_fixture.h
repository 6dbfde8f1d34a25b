/*
 * console_fixture.h -- integration tests of the admin console: a daemon
 * with a scripts dir (the shipped summarize.lua and admin scripts, plus what
 * the test adds) and a console client on its admin socket.
 */
#pragma once

#include "console_client.h"
#include "fixture.h"

#include <filesystem>
#include <memory>
#include <string>

namespace mnemo::integration {

class ConsoleTest : public DaemonTest {
protected:
    // Writes scripts.dir/<name> (subfolders created).
    void script(const std::string& name, const std::string& text) {
        std::filesystem::create_directories(std::filesystem::path(scripts_.path() + "/" + name).parent_path());
        scripts_.write(name, text);
    }
    void shipped(const std::string& name) {
        std::filesystem::create_directories(std::filesystem::path(scripts_.path() + "/" + name).parent_path());
        std::filesystem::copy_file(std::string(MNEMO_SOURCE_DIR) + "/scripts/" + name, scripts_.path() + "/" + name,
                                   std::filesystem::copy_options::overwrite_existing);
    }
    std::string config(const std::string& server_lines = "", const std::string& scripts_lines = "",
                       const std::string& sections = "") const {
        return base_config(server_lines, "scripts:\n  dir: " + scripts_.path() + "\n" + scripts_lines + sections);
    }
    // Starts the daemon with the shipped scripts and connects a console.
    void start_console(const std::string& server_lines = "", const std::string& scripts_lines = "",
                       const std::string& sections = "") {
        shipped("summarize.lua");
        shipped("admin/top.lua");
        shipped("admin/report.lua");
        start_daemon(config(server_lines, scripts_lines, sections));
        console_ = connect_console();
    }
    std::string admin_socket() const { return daemon_->dir() + "/admin.sock"; }
    std::unique_ptr<ConsoleClient> connect_console() {
        auto client = std::make_unique<ConsoleClient>();
        std::string error;
        EXPECT_TRUE(client->connect(admin_socket(), &error)) << error;
        EXPECT_EQ(client->greeting().type, "hello") << client->greeting().payload;
        return client;
    }
    ConsoleReply lua(const std::string& chunk) { return console_->run(chunk); }
    // The chunk's first returned value, canonical JSON; the test fails when the chunk failed.
    std::string value(const std::string& chunk) {
        ConsoleReply reply = lua(chunk);
        EXPECT_EQ(reply.type, "result") << chunk << " -> " << reply.payload;
        return first_result(reply);
    }
    // The HTTP answer's body (or one field of it, by JSON pointer), canonical.
    std::string http_json(const std::string& target, const std::string& pointer = "") {
        HttpResponse response = call("GET", target);
        EXPECT_EQ(response.status, 200) << target << ": " << response.body;
        if (pointer.empty()) return canonical_json(response.body);
        return canonical_json(json_raw(response.body, pointer).value_or(""));
    }

    TempDir scripts_;
    std::unique_ptr<ConsoleClient> console_;
};

}  // namespace mnemo::integration
