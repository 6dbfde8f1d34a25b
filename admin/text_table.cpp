#include "text_table.h"

#include "lua_literal.h"

#include <algorithm>
#include <string_view>
#include <vector>

namespace mnemo::admin {
namespace {

using simdjson::dom::element;
using simdjson::dom::element_type;

struct Cell {
    std::string text;
    bool right_aligned = false;  // numbers line up on their last digit
};

using Row = std::vector<Cell>;

std::vector<std::string> union_of_keys(simdjson::dom::array rows) {
    std::vector<std::string> keys;
    for (element row : rows) {
        simdjson::dom::object fields = row.get_object().value_unsafe();
        for (auto field : fields) {
            std::string key(field.key);
            if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(std::move(key));
        }
    }
    return keys;
}

Cell cell_of(element value) {
    switch (value.type()) {
        case element_type::INT64:
        case element_type::UINT64:
        case element_type::DOUBLE:
            return {number_text(value), true};
        case element_type::ARRAY:
        case element_type::OBJECT:
            return {lua_literal(value, 0, static_cast<size_t>(-1)), false};
        default:
            return {bare_text(value), false};
    }
}

Row row_cells(element row, const std::vector<std::string>& keys) {
    Row cells;
    auto object = row.get_object().value_unsafe();
    for (const auto& key : keys) {
        element value;
        bool present = object.at_key(key).get(value) == simdjson::SUCCESS;
        cells.push_back(present ? cell_of(value) : Cell{});
    }
    return cells;
}

// Display columns of UTF-8 text: every byte that does not continue a character.
size_t display_width(std::string_view text) {
    return static_cast<size_t>(
        std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

// Cells are one line each: a newline would break the alignment of every row.
std::string one_line(std::string text) {
    for (char& c : text) {
        if (c == '\n' || c == '\r' || c == '\t') c = ' ';
    }
    return text;
}

void append_line(std::string& out, const Row& cells, const std::vector<size_t>& widths) {
    std::string line;
    for (size_t i = 0; i < cells.size(); ++i) {
        if (i > 0) line += "  ";
        std::string padding(widths[i] - display_width(cells[i].text), ' ');
        line += cells[i].right_aligned ? padding + cells[i].text : cells[i].text + padding;
    }
    line.erase(line.find_last_not_of(' ') + 1);
    out += line + "\n";
}

}  // namespace

bool is_rows(element value) {
    if (value.type() != element_type::ARRAY) return false;
    auto array = value.get_array().value_unsafe();
    if (array.size() == 0) return false;
    bool all_objects =
        std::all_of(array.begin(), array.end(), [](element row) { return row.type() == element_type::OBJECT; });
    // Rows without a single key would make a table without columns.
    return all_objects && std::any_of(array.begin(), array.end(),
                                      [](element row) { return row.get_object().value_unsafe().size() > 0; });
}

std::string text_table(simdjson::dom::array rows) {
    auto keys = union_of_keys(rows);
    Row header, rule;
    for (const auto& key : keys) header.push_back({key, false});
    std::vector<Row> body;
    for (element row : rows) body.push_back(row_cells(row, keys));
    std::vector<size_t> widths(keys.size());
    for (size_t i = 0; i < keys.size(); ++i) {
        widths[i] = display_width(keys[i]);
        for (auto& cells : body) {
            cells[i].text = one_line(std::move(cells[i].text));
            widths[i] = std::max(widths[i], display_width(cells[i].text));
        }
        rule.push_back({std::string(widths[i], '-'), false});
    }
    std::string out;
    append_line(out, header, widths);
    append_line(out, rule, widths);
    for (const auto& cells : body) append_line(out, cells, widths);
    return out;
}

}  // namespace mnemo::admin
