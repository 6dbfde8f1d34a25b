#include "observability/log.h"

#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_sinks.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <memory>

namespace mnemo::log {
namespace {

// Escapes the message for a JSON string; spdlog's pattern cannot.
class JsonMessageFlag : public spdlog::custom_flag_formatter {
public:
    void format(const spdlog::details::log_msg& msg, const std::tm&, spdlog::memory_buf_t& dest) override {
        for (char c : std::string_view(msg.payload.data(), msg.payload.size())) {
            switch (c) {
                case '"':
                    dest.append(std::string_view("\\\""));
                    break;
                case '\\':
                    dest.append(std::string_view("\\\\"));
                    break;
                case '\n':
                    dest.append(std::string_view("\\n"));
                    break;
                case '\r':
                    dest.append(std::string_view("\\r"));
                    break;
                case '\t':
                    dest.append(std::string_view("\\t"));
                    break;
                default:
                    if (static_cast<unsigned char>(c) < 0x20) {
                        fmt::format_to(std::back_inserter(dest), "\\u{:04x}", static_cast<unsigned>(c));
                    } else {
                        dest.push_back(c);
                    }
            }
        }
    }
    std::unique_ptr<custom_flag_formatter> clone() const override { return std::make_unique<JsonMessageFlag>(); }
};

// The message with line breaks escaped, so a text line is one event (journald
// would otherwise make each line a separate entry).
class OneLineMessageFlag : public spdlog::custom_flag_formatter {
public:
    void format(const spdlog::details::log_msg& msg, const std::tm&, spdlog::memory_buf_t& dest) override {
        for (char c : std::string_view(msg.payload.data(), msg.payload.size())) {
            if (c == '\n') {
                dest.append(std::string_view("\\n"));
            } else if (c == '\r') {
                dest.append(std::string_view("\\r"));
            } else {
                dest.push_back(c);
            }
        }
    }
    std::unique_ptr<custom_flag_formatter> clone() const override { return std::make_unique<OneLineMessageFlag>(); }
};

// "<3>" for error ... "<7>" for debug and trace: the syslog priority journald
// reads off the start of each stderr line (sd-daemon.h's SD_ERR etc.).
class SyslogPriorityFlag : public spdlog::custom_flag_formatter {
public:
    void format(const spdlog::details::log_msg& msg, const std::tm&, spdlog::memory_buf_t& dest) override {
        fmt::format_to(std::back_inserter(dest), "<{}>", priority(msg.level));
    }
    std::unique_ptr<custom_flag_formatter> clone() const override { return std::make_unique<SyslogPriorityFlag>(); }

private:
    static int priority(spdlog::level::level_enum level) {
        switch (level) {
            case spdlog::level::critical:
                return 2;
            case spdlog::level::err:
                return 3;
            case spdlog::level::warn:
                return 4;
            case spdlog::level::info:
                return 6;
            default:
                return 7;
        }
    }
};

// systemd sets JOURNAL_STREAM to "<device>:<inode>" of the journal stream it
// connected; it only applies while stderr is still that very stream.
bool stderr_is_journal() {
    const char* stream = std::getenv("JOURNAL_STREAM");
    if (stream == nullptr) return false;
    unsigned long long device = 0, inode = 0;
    if (std::sscanf(stream, "%llu:%llu", &device, &inode) != 2) return false;
    struct stat status {};
    if (::fstat(STDERR_FILENO, &status) != 0) return false;
    return status.st_dev == device && status.st_ino == inode;
}

// Custom flags: '*' the JSON-escaped message, 'q' the one-line message, '~' the journald priority.
std::string pattern_for(Format format, bool journal) {
    // journald stamps every line itself, so there the priority replaces the time.
    if (format == Format::Json) {
        return journal ? R"(%~{"level":"%l","msg":"%*"})" : R"({"ts":"%Y-%m-%dT%H:%M:%S.%fZ","level":"%l","msg":"%*"})";
    }
    return journal ? "%~%l %q" : "%Y-%m-%dT%H:%M:%S.%fZ %l %q";
}

std::unique_ptr<spdlog::formatter> make_formatter(Format format) {
    auto formatter = std::make_unique<spdlog::pattern_formatter>(spdlog::pattern_time_type::utc);
    formatter->add_flag<JsonMessageFlag>('*');
    formatter->add_flag<OneLineMessageFlag>('q');
    formatter->add_flag<SyslogPriorityFlag>('~');
    formatter->set_pattern(pattern_for(format, stderr_is_journal()));
    return formatter;
}

}  // namespace

void init(std::string_view level, Format format) {
    auto logger = std::make_shared<spdlog::logger>("mnemod", std::make_shared<spdlog::sinks::stderr_sink_mt>());
    logger->set_formatter(make_formatter(format));
    spdlog::set_default_logger(logger);
    set_level(level);
}

bool set_level(std::string_view level) {
    static constexpr std::pair<std::string_view, spdlog::level::level_enum> levels[] = {{"trace", spdlog::level::trace},
                                                                                        {"debug", spdlog::level::debug},
                                                                                        {"info", spdlog::level::info},
                                                                                        {"warn", spdlog::level::warn},
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
    return level == spdlog::level::err
               ? "error"
               : std::string(spdlog::level::to_string_view(level).data(), spdlog::level::to_string_view(level).size());
}

}  // namespace mnemo::log
