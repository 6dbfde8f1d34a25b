// Fuzz target: loading a YAML config (config/config.h), ${VAR} expansion
// included, from any text. Loading either succeeds with no errors (and the
// loaded config renders as valid JSON, as `mnemoctl` and --print-config show
// it) or fails with errors that each name the place: "file:line:col: ...".
#include "config/config.h"
#include "core/json_input.h"
#include "fuzz_check.h"

#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

namespace {

constexpr std::string_view kName = "fuzz.yaml";

void require(bool condition, const char* what, std::string_view text) {
    mnemo::fuzz::require(condition, "config", what, text);
}

// "fuzz.yaml:<line>:<col>: "
bool placed(std::string_view error) {
    if (error.substr(0, kName.size()) != kName) return false;
    size_t at = kName.size();
    for (int part = 0; part < 2; ++part) {
        if (at >= error.size() || error[at] != ':') return false;
        size_t digits = ++at;
        while (at < error.size() && std::isdigit(static_cast<unsigned char>(error[at]))) ++at;
        if (at == digits) return false;
    }
    return error.substr(at, 2) == ": ";
}

}  // namespace

// The variables the seed configs refer to; others are unset.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
    setenv("MNEMO_FUZZ_TOKEN", "s3cret-token", 1);
    setenv("MNEMO_FUZZ_EMPTY", "", 1);
    setenv("MNEMO_FUZZ_PORT", "7421", 1);
    setenv("MNEMO_FUZZ_DOLLAR", "${MNEMO_FUZZ_TOKEN}", 1);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string text(reinterpret_cast<const char*>(data), size);
    auto result = mnemo::config::load_string(text, std::string(kName), "/nonexistent/mnemo-fuzz");
    if (result.config) {
        require(result.errors.empty(), "a config loaded with errors", text);
        auto whole = result.config->value_json("");
        require(whole.has_value(), "the loaded config has no value at the path \"\"", text);
        require(!mnemo::core::validate_json(*whole), "the loaded config is not valid JSON", *whole);
        return 0;
    }
    require(!result.errors.empty(), "a config refused without an error", text);
    for (const std::string& error : result.errors) require(placed(error), "an error without file:line:col", error);
    return 0;
}
