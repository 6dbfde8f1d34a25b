// Collects every validation error of one load with its place, so the user
// sees all of them at once, each as "file:line:col: key.path: message".
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <yaml-cpp/mark.h>

namespace mnemo::config {

// Where a value sits: its dotted key path and its position in the file.
struct Place {
    std::string path;  // e.g. "server.listen[0]"
    YAML::Mark mark = YAML::Mark::null_mark();
};

class Diagnostics {
public:
    explicit Diagnostics(std::string display_name) : display_name_(std::move(display_name)) {}

    void add(const Place& place, std::string_view message);
    // A message with no place in the file, e.g. "cannot read x.yaml: ...".
    void add_unplaced(std::string message);
    bool empty() const { return entries_.empty(); }
    size_t count() const { return entries_.size(); }
    // Sorted by position in the file; unplaced messages first.
    std::vector<std::string> sorted() const;

private:
    struct Entry {
        int line;
        int column;
        std::string text;
    };
    std::string display_name_;
    std::vector<Entry> entries_;
};

// The known key nearest to `key` by edit distance (at most 2), or "".
std::string nearest_key(std::string_view key, const std::vector<std::string_view>& known);

}  // namespace mnemo::config
