/*
 * mnemoctl_fixture.h -- the gtest fixture of the mnemoctl tests against the
 * fake console: a scratch folder (also the HOME of interactive runs) and a
 * FakeConsole listening on <folder>/admin.sock.
 */
#pragma once

#include "daemon_process.h"
#include "mnemoctl_fake_console.h"
#include "mnemoctl_process.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace mnemo::integration {

class MnemoctlFakeTest : public ::testing::Test {
protected:
    void SetUp() override { fake_ = std::make_unique<FakeConsole>(socket_path()); }
    std::string socket_path() const { return dir_.path() + "/admin.sock"; }
    // mnemoctl --socket <fake> plus args, run to completion.
    CtlResult ctl(std::vector<std::string> args, const std::string& stdin_text = "") {
        args.insert(args.begin(), {"--socket", socket_path()});
        return run_mnemoctl(CtlRun{args, stdin_text, "", {}});
    }

    TempDir dir_;
    std::unique_ptr<FakeConsole> fake_;
};

}  // namespace mnemo::integration
