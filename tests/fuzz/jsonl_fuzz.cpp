// Fuzz target: the JSONL import decoder (core/export_jsonl.h) on any line an
// import file may hold. A line it refuses gets a message naming what is
// wrong; a line it accepts, encoded again, is one valid JSON line that
// decodes to a record encoding to the very same bytes (export and import are
// exact to the byte).
#include "core/export_jsonl.h"
#include "core/json_input.h"
#include "core/utf8.h"
#include "fuzz_check.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace {

using namespace mnemo::core;

void require(bool condition, const char* what, std::string_view text) {
    mnemo::fuzz::require(condition, "jsonl", what, text);
}

std::string encode(const JsonlRecord& record) {
    RecordParts parts;
    return encode_record(record_view(record, parts));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    DecodeLimits limits;
    limits.max_memory_text_bytes = data[0] % 2 == 0 ? 0 : 64;
    std::string line(reinterpret_cast<const char*>(data) + 1, size - 1);
    const std::string input = line;
    JsonlRecord record;
    if (auto problem = decode_record(line, record, limits)) {
        require(!problem->empty(), "a refusal without a message", input);
        return 0;
    }
    std::string encoded = encode(record);
    require(encoded.find('\n') == std::string::npos, "an encoded record spans lines", encoded);
    require(!validate_json(encoded), "an encoded record is not valid JSON", encoded);
    std::string copy = encoded;
    JsonlRecord again;
    auto problem = decode_record(copy, again, limits);
    require(!problem, "an encoded record does not decode", encoded + "\n" + problem.value_or(""));
    require(encode(again) == encoded, "an encoded record does not encode to the same bytes", encoded);
    return 0;
}
