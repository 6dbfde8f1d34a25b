#include "db.h"

#include "columns.h"

#include <algorithm>

namespace mnemo::sqlcore {

Query& Query::bind(int index, mnemo_str value) {
    if (!value.ptr) {
        stmt_->bind_null(index);
        return *this;
    }
    return bind(index, std::string_view(value.ptr, value.len));
}

std::string with_lock(const Db& db, std::string_view sql) {
    return db.writing() ? std::string(sql) + kForUpdate : std::string(sql);
}

void for_each_row_in_list(Db& db, std::string_view select, const std::vector<int64_t>& values, size_t width,
                          const std::vector<int64_t>& leading, std::string_view after,
                          const std::function<void(const Query&)>& on_row) {
    const size_t tuples = values.size() / width;
    for (size_t from = 0; from < tuples; from += kTuplesPerRead) {
        const size_t count = std::min(kTuplesPerRead, tuples - from);
        const size_t places = in_list_places(count);
        Query rows(db, std::string(select) + in_list(places, width) + std::string(after));
        int index = 0;
        for (int64_t value : leading) rows.bind(++index, value);
        for (size_t i = 0; i < places; ++i) {
            const size_t tuple = from + std::min(i, count - 1);
            for (size_t k = 0; k < width; ++k) rows.bind(++index, values[tuple * width + k]);
        }
        while (rows.step()) on_row(rows);
    }
}

std::string Query::text(int column) const {
    mnemo_str value = str(column);
    return value.ptr ? std::string(value.ptr, value.len) : std::string();
}

}  // namespace mnemo::sqlcore
