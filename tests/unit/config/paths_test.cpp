// Relative paths resolve against the config file's folder; scripts fall back
// to the installed ones when the default ./scripts folder is missing.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "load_helpers.h"

namespace mnemo::config {
namespace {

namespace fs = std::filesystem;
using testing::valid;

class PathsOnDisk : public ::testing::Test {
protected:
    void SetUp() override {
        std::string pattern = (fs::temp_directory_path() / "mnemo-config-XXXXXX").string();
        ASSERT_NE(mkdtemp(pattern.data()), nullptr);
        dir_ = pattern;
    }
    void TearDown() override { fs::remove_all(dir_); }

    std::string write(const std::string& name, const std::string& text) {
        std::string path = (dir_ / name).string();
        std::ofstream(path) << text;
        return path;
    }

    fs::path dir_;
};

TEST(Paths, RelativePathsResolveAgainstTheBaseDir) {
    auto config = valid(
        "server:\n  listen: [\"unix:run/api.sock\"]\n  admin_socket: ../admin.sock\n"
        "storage:\n  plugin: plugins/custom.so\n  plugin_dir: ./lib\n"
        "scripts:\n  dir: my-scripts\n");
    EXPECT_EQ(config->server.listen[0].path, "/srv/mnemo/run/api.sock");
    EXPECT_EQ(config->server.listen[0].text, "unix:run/api.sock");
    EXPECT_EQ(config->server.admin_socket, "/srv/admin.sock");
    EXPECT_EQ(config->storage.plugin, "/srv/mnemo/plugins/custom.so");
    EXPECT_EQ(config->storage.plugin_dir, "/srv/mnemo/lib");
    EXPECT_EQ(config->scripts.dir, "/srv/mnemo/my-scripts");
}

TEST(Paths, AbsolutePathsStayAsWritten) {
    auto config = valid("storage:\n  options: {path: /data/x.db}\nscripts: {dir: /opt/scripts}\n");
    EXPECT_EQ(config->value_json("storage.options.path"), "\"/data/x.db\"");
    EXPECT_EQ(config->scripts.dir, "/opt/scripts");
}

TEST_F(PathsOnDisk, FileFolderIsTheBaseAndErrorsNameThePathAsGiven) {
    std::string path = write("mnemod.yaml", "storage:\n  options: {path: db/m.db}\n");
    LoadResult result = load_file(path);
    ASSERT_TRUE(result.errors.empty());
    EXPECT_EQ(result.config->base_dir, dir_.string());
    EXPECT_EQ(result.config->value_json("storage.options.path"), "\"" + (dir_ / "db/m.db").string() + "\"");
    std::string bad = write("bad.yaml", "log: {level: x}\n");
    EXPECT_EQ(load_file(bad).errors.at(0),
              bad + ":1:14: log.level: expected one of trace, debug, info, warn, error, got \"x\"");
}

TEST_F(PathsOnDisk, DefaultScriptsFolderIsUsedWhenItExists) {
    fs::create_directory(dir_ / "scripts");
    LoadResult result = load_zero_config(dir_.string());
    EXPECT_EQ(result.config->scripts.dir, (dir_ / "scripts").string());
}

TEST_F(PathsOnDisk, MissingDefaultScriptsFolderFallsBackToTheInstalledScripts) {
    LoadResult zero = load_zero_config(dir_.string());
    EXPECT_NE(zero.config->scripts.dir, (dir_ / "scripts").string());
    EXPECT_TRUE(fs::path(zero.config->scripts.dir).is_absolute());
    LoadResult from_file = load_file(write("mnemod.yaml", "scripts: {dir: ./scripts}\n"));
    EXPECT_EQ(from_file.config->scripts.dir, zero.config->scripts.dir);
}

TEST_F(PathsOnDisk, FindConfigFilePrefersTheWorkingDirectory) {
    fs::path previous = fs::current_path();
    fs::current_path(dir_);
    std::optional<std::string> without = find_config_file();
    write("mnemod.yaml", "{}\n");
    std::optional<std::string> with = find_config_file();
    fs::current_path(previous);
    EXPECT_EQ(with, "mnemod.yaml");
    if (fs::exists("/etc/mnemod/mnemod.yaml")) {
        EXPECT_EQ(without, "/etc/mnemod/mnemod.yaml");
    } else {
        EXPECT_EQ(without, std::nullopt);
    }
}

}  // namespace
}  // namespace mnemo::config
