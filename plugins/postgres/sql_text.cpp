#include "sql_text.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <utility>

namespace mnemo::postgres {
namespace {

// Spellings the rewrite below cannot reach.
const std::array<std::pair<std::string_view, std::string_view>, 1> kSpellings{{
    {"AND +app = ?", "AND app = ?"},
}};

constexpr std::string_view kReplaceInto = "REPLACE INTO ";

// "REPLACE INTO t (c1, c2) VALUES (...)" as "INSERT INTO t (c1, c2) VALUES
// (...) ON CONFLICT ON CONSTRAINT t_pkey DO UPDATE SET (c1, c2) =
// ROW(EXCLUDED.c1, EXCLUDED.c2)": the tables the core replaces rows of have
// no unique key but their primary key, whose constraint PostgreSQL names t_pkey.
std::string insert_or_update(std::string text) {
    if (!text.starts_with(kReplaceInto)) return text;
    const size_t open = text.find(" (", kReplaceInto.size()), close = text.find(')', open);
    if (open == std::string::npos || close == std::string::npos) return text;
    const std::string table = text.substr(kReplaceInto.size(), open - kReplaceInto.size());
    const std::string columns = text.substr(open + 2, close - open - 2);
    std::string excluded;
    for (size_t start = 0; start < columns.size();) {
        size_t comma = columns.find(", ", start);
        if (comma == std::string::npos) comma = columns.size();
        excluded += (excluded.empty() ? "EXCLUDED." : ", EXCLUDED.") + columns.substr(start, comma - start);
        start = comma + 2;
    }
    return "INSERT INTO " + text.substr(kReplaceInto.size()) + " ON CONFLICT ON CONSTRAINT " + table +
           "_pkey DO UPDATE SET (" + columns + ") = ROW(" + excluded + ")";
}

bool word_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

std::string spelled(std::string_view sql) {
    std::string text = insert_or_update(std::string(sql));
    for (const auto& [from, to] : kSpellings)
        for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
            text.replace(at, from.size(), to);
    return text;
}

// True when text at `at` (after spaces) tests the value alone: IS NULL, IS NOT NULL.
bool null_test_follows(const std::string& text, size_t at) {
    while (at < text.size() && text[at] == ' ') ++at;
    std::string_view rest = std::string_view(text).substr(at);
    return rest.starts_with("IS NULL") || rest.starts_with("IS NOT NULL");
}

// Copies a quoted run ('...' or "...", the quote doubled inside) from text[i].
size_t copy_quoted(const std::string& text, size_t i, std::string& out) {
    const char quote = text[i];
    out.push_back(text[i++]);
    while (i < text.size()) {
        out.push_back(text[i]);
        if (text[i++] != quote) continue;
        if (i < text.size() && text[i] == quote) {
            out.push_back(text[i++]);
            continue;
        }
        break;
    }
    return i;
}

}  // namespace

PgText postgres_text(std::string_view sql) {
    const std::string text = spelled(sql);
    PgText out;
    out.sql.reserve(text.size() + 16);
    int next = 0;
    for (size_t i = 0; i < text.size();) {
        const char c = text[i];
        if (c == '\'' || c == '"') {
            i = copy_quoted(text, i, out.sql);
        } else if (c == '?') {
            size_t end = i + 1;
            while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end]))) ++end;
            const int number = end > i + 1 ? std::stoi(text.substr(i + 1, end - i - 1)) : ++next;
            out.params = std::max(out.params, number);
            out.sql += "$" + std::to_string(number);
            if (null_test_follows(text, end)) out.sql += "::text";
            i = end;
        } else if (word_char(c) && (i == 0 || !word_char(text[i - 1]))) {
            size_t end = i;
            while (end < text.size() && word_char(text[end])) ++end;
            std::string_view word = std::string_view(text).substr(i, end - i);
            out.sql += word == "user" ? std::string_view("\"user\"") : word;
            i = end;
        } else {
            out.sql.push_back(c);
            ++i;
        }
    }
    return out;
}

}  // namespace mnemo::postgres
