// What both embedder kinds share (the request body, the reading of an
// embeddings answer, the choice of client by kind) and the command kind,
// which is the shared process runner plus these.
#include "memory/embedder.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <cmath>
#include <limits>

#include "core/json_writer.h"
#include "process/child_process.h"

namespace mnemo::memory {
namespace {

namespace dom = simdjson::dom;

constexpr size_t kBodyExcerptBytes = 200;

struct Item {
    std::optional<uint64_t> index;
    dom::array embedding;
};

// One data[i] entry; "" or what is wrong with it.
std::string read_item(dom::element element, size_t position, Item& item) {
    dom::object object;
    if (element.get_object().get(object) != simdjson::SUCCESS)
        return fmt::format("data[{}] is not an object", position);
    dom::element index;
    if (object["index"].get(index) == simdjson::SUCCESS) {
        uint64_t value = 0;
        if (index.get_uint64().get(value) != simdjson::SUCCESS)
            return fmt::format("data[{}].index is not a whole number", position);
        item.index = value;
    }
    if (object["embedding"].get_array().get(item.embedding) != simdjson::SUCCESS)
        return fmt::format("data[{}].embedding is not a list of numbers", position);
    return "";
}

std::string read_vector(const dom::array& numbers, size_t position, Vector& out) {
    out.reserve(numbers.size());
    for (dom::element number : numbers) {
        double value = 0;
        if (number.get_double().get(value) != simdjson::SUCCESS)
            return fmt::format("data[{}].embedding[{}] is not a number", position, out.size());
        // Checked before narrowing: a double past float's range has no float value.
        if (!std::isfinite(value) || std::abs(value) > std::numeric_limits<float>::max())
            return fmt::format("data[{}].embedding[{}] is not a finite number ({})", position, out.size(), value);
        out.push_back(static_cast<float>(value));
    }
    if (out.empty()) return fmt::format("data[{}].embedding is empty", position);
    return "";
}

// Input positions by data[i].index when every item has one, else by order.
std::string place_items(const std::vector<Item>& items, std::vector<size_t>& slot_of) {
    bool all_indexed = true;
    for (const Item& item : items) all_indexed = all_indexed && item.index.has_value();
    slot_of.assign(items.size(), 0);
    std::vector<bool> taken(items.size(), false);
    for (size_t i = 0; i < items.size(); ++i) {
        if (!all_indexed) {
            slot_of[i] = i;
            continue;
        }
        uint64_t index = *items[i].index;
        if (index >= items.size())
            return fmt::format("data[{}].index is {}, past the {} inputs", i, index, items.size());
        if (taken[index]) return fmt::format("data[{}].index {} is repeated", i, index);
        taken[index] = true;
        slot_of[i] = index;
    }
    return "";
}

EmbedOutcome fail(std::string_view source, const std::string& what, std::string_view json) {
    return {fmt::format("{} answered {} (answer: {})", source, what, excerpt(json, kBodyExcerptBytes)), {}};
}

class CommandEmbedder final : public Embedder {
public:
    EmbedOutcome embed(const std::vector<std::string>& texts, const config::EmbedderConfig& settings,
                       const std::atomic<bool>& cancel) override {
        if (texts.empty()) return {};
        process::CommandSpec spec{settings.command,          embed_request_body(settings.model, texts),
                                  settings.timeout_us,       kMaxAnswerBytes,
                                  "memory.embedder.command", "memory.embedder.timeout"};
        process::CommandResult result = process::run_command(spec, cancel);
        if (result.error) return {std::move(result.error), {}};
        std::string source = fmt::format("memory.embedder.command '{}'", settings.command.front());
        return parse_embed_answer(result.output, texts.size(), source);
    }
};

}  // namespace

std::unique_ptr<Embedder> make_command_embedder() {
    return std::make_unique<CommandEmbedder>();
}

std::string embed_request_body(std::string_view model, const std::vector<std::string>& texts) {
    std::string body;
    core::JsonWriter writer(body);
    writer.begin_object().field("model", model).key("input").begin_array();
    for (const std::string& text : texts) writer.string(text);
    writer.end_array().end_object();
    return body;
}

EmbedOutcome parse_embed_answer(std::string_view json, size_t expected, std::string_view source) {
    thread_local dom::parser parser;
    dom::element root;
    if (auto error = parser.parse(json.data(), json.size()).get(root); error != simdjson::SUCCESS)
        return fail(source, fmt::format("with invalid JSON ({})", simdjson::error_message(error)), json);
    dom::array data;
    if (root["data"].get_array().get(data) != simdjson::SUCCESS) return fail(source, "without a \"data\" list", json);
    if (data.size() != expected)
        return fail(source, fmt::format("{} vectors for {} texts", data.size(), expected), json);
    std::vector<Item> items(expected);
    size_t position = 0;
    for (dom::element element : data) {
        if (std::string wrong = read_item(element, position, items[position]); !wrong.empty())
            return fail(source, "badly: " + wrong, json);
        ++position;
    }
    std::vector<size_t> slot_of;
    if (std::string wrong = place_items(items, slot_of); !wrong.empty()) return fail(source, "badly: " + wrong, json);
    EmbedOutcome outcome;
    outcome.vectors.resize(expected);
    for (size_t i = 0; i < expected; ++i) {
        Vector& vector = outcome.vectors[slot_of[i]];
        if (std::string wrong = read_vector(items[i].embedding, i, vector); !wrong.empty())
            return fail(source, "badly: " + wrong, json);
        if (vector.size() != outcome.vectors[slot_of[0]].size()) {
            return fail(source,
                        fmt::format("vectors of different lengths: data[0] has {} numbers, data[{}] has {}",
                                    outcome.vectors[slot_of[0]].size(), i, vector.size()),
                        json);
        }
    }
    return outcome;
}

std::string excerpt(std::string_view text, size_t max_bytes) {
    size_t cut = std::min(text.size(), max_bytes);
    // Back up over UTF-8 continuation bytes so no character is split.
    while (cut < text.size() && cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
    std::string shown(text.substr(0, cut));
    for (char& c : shown) {
        if (c == '\n' || c == '\r' || c == '\t') c = ' ';
    }
    if (cut < text.size()) shown += "...";
    return shown;
}

std::unique_ptr<Embedder> make_embedder(config::EmbedderConfig::Kind kind) {
    switch (kind) {
        case config::EmbedderConfig::Kind::Http:
            return make_http_embedder();
        case config::EmbedderConfig::Kind::Command:
            return make_command_embedder();
        case config::EmbedderConfig::Kind::None:
            break;
    }
    return nullptr;
}

}  // namespace mnemo::memory
