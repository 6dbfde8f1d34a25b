#include "db.h"

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

std::string Query::text(int column) const {
    mnemo_str value = str(column);
    return value.ptr ? std::string(value.ptr, value.len) : std::string();
}

}  // namespace mnemo::sqlcore
