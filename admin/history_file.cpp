#include "history_file.h"

#include <fcntl.h>
#include <pwd.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>

namespace mnemo::admin {

std::optional<std::string> default_history_path() {
    const char* home = std::getenv("HOME");
    if (home == nullptr || *home == '\0') {
        const passwd* entry = ::getpwuid(::getuid());
        home = entry ? entry->pw_dir : nullptr;
    }
    if (home == nullptr || *home == '\0') return std::nullopt;
    return std::string(home) + "/.mnemoctl_history";
}

std::vector<std::string> load_history(const std::string& path) {
    std::vector<std::string> lines;
    std::ifstream file(path);
    std::string line;
    while (std::getline(file, line)) {
        if (worth_keeping(line, lines.empty() ? std::string() : lines.back())) lines.push_back(line);
    }
    return lines;
}

bool worth_keeping(const std::string& line, const std::string& previous) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) return false;
    return line != previous;
}

bool append_history_line(const std::string& path, const std::string& line) {
    // 0600: typed lines may hold tokens or user data.
    int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) return false;
    std::string record = line + "\n";
    bool written = ::write(fd, record.data(), record.size()) == static_cast<ssize_t>(record.size());
    ::close(fd);
    return written;
}

}  // namespace mnemo::admin
