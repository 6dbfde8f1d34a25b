#include "observability/log.h"

#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_sinks.h>

#include <memory>

namespace mnemo::log {
namespace {

// Escapes the message for a JSON string; spdlog's pattern cannot.
class JsonMessageFlag : public spdlog::custom_flag_formatter {
public:
    void format(const spdlog::details::log_msg& msg, const std::tm&, spdlog::memory_buf_t& dest) override {
        for (char c : std::string_view(msg.payload.data(), msg.payload.size())) {
            switch (c) {
            case '"': dest.append(std::string_view("\\\"")); break;
            case '\\': dest.append(std::string_view("\\\\")); break;
            case '\n': dest.append(std::string_view("\\n")); break;
            case '\r': dest.append(std::string_view("\\r")); break;
            case '\t': dest.append(std::string_view("\\t")); break;
            default:
                if (static_cast<unsigned char>(c) < 0x20) {
                    fmt::format_to(std::back_inserter(dest), "\\u{:04x}", static_cast<unsigned>(c));
                } else {
                    dest.push_back(c);
                }
            }
        }
    }
    std::unique_ptr<custom_flag_formatter> clone() const override {
        return std::make_unique<JsonMessageFlag>();
    }
};

std::unique_ptr<spdlog::formatter> make_formatter(Format format) {
    auto formatter = std::make_unique<spdlog::pattern_formatter>(spdlog::pattern_time_type::utc);
    if (format == Format::Json) {
        formatter->add_flag<JsonMessageFlag>('*').set_pattern(
            R"({"ts":"%Y-%m-%dT%H:%M:%S.%fZ","level":"%l","msg":"%*"})");
    } else {
        formatter->set_pattern("%Y-%m-%dT%H:%M:%S.%fZ %l %v");
    }
    return formatter;
}

}  // namespace

void init(std::string_view level, Format format) {
    auto logger = std::make_shared<spdlog::logger>("mnemod",
        std::make_shared<spdlog::sinks::stderr_sink_mt>());
    logger->set_formatter(make_formatter(format));
    spdlog::set_default_logger(logger);
    set_level(level);
}

bool set_level(std::string_view level) {
    static constexpr std::pair<std::string_view, spdlog::level::level_enum> levels[] = {
        {"trace", spdlog::level::trace}, {"debug", spdlog::level::debug},
        {"info", spdlog::level::info},   {"warn", spdlog::level::warn},
        {"error", spdlog::level::err}};
    for (const auto& [name, value] : levels) {
        if (name == level) {
            spdlog::set_level(value);
            return true;
        }
    }
    return false;
}

std::string level_name() {
    auto level = spdlog::get_level();
    return level == spdlog::level::err ? "error" : std::string(spdlog::level::to_string_view(level).data(),
                                                               spdlog::level::to_string_view(level).size());
}

}  // namespace mnemo::log
