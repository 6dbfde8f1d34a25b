// The base of the export/import conformance tests: a scratch folder for
// export files, and export/import calls that fail the test on an error.
#pragma once

#include "harness.h"

#include "core/export_import.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace mnemo::testing {

class TransferTest : public Conformance {
protected:
    void SetUp() override {
        Conformance::SetUp();
        dir_ = std::filesystem::temp_directory_path() / ("mnemo-export-" + std::to_string(::getpid()));
        std::filesystem::create_directories(dir_);
    }
    void TearDown() override { std::filesystem::remove_all(dir_); }

    std::string file(const std::string& name) const { return (dir_ / name).string(); }

    static core::TransferCounts export_to(Harness& from, const std::string& path) {
        core::TransferResult result = core::export_app(from.env(), "shop", path);
        EXPECT_FALSE(result.error) << result.error->message;
        return result.counts;
    }

    static core::TransferCounts import_into(Harness& into, const std::string& path) {
        core::TransferResult result = core::import_file(into.env(), path);
        EXPECT_FALSE(result.error) << result.error->message;
        return result.counts;
    }

    static std::string read_all(const std::string& path) {
        std::ifstream in(path);
        return std::string(std::istreambuf_iterator<char>(in), {});
    }

    std::filesystem::path dir_;
};

}  // namespace mnemo::testing
