#include "word_tokenizer.h"

#include "word_separators.h"

namespace mnemo::sqlite {
namespace {

fts5_api* fts5_api_of(Conn& conn) {
    fts5_api* api = nullptr;
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(conn.db(), "SELECT fts5(?1)", -1, &stmt, nullptr) == SQLITE_OK) {
        sqlite3_bind_pointer(stmt, 1, static_cast<void*>(&api), "fts5_api_ptr", nullptr);
        sqlite3_step(stmt);
    }
    sqlite3_finalize(stmt);
    return api;
}

int count_token(void* count, int /*flags*/, const char* /*token*/, int /*length*/, int /*begin*/, int /*end*/) {
    ++*static_cast<size_t*>(count);
    return SQLITE_OK;
}

}  // namespace

const char* const kWordTokenizerArgs[4] = {"remove_diacritics", "2", "separators", MNEMO_SQLITE_WORD_SEPARATORS_V5};

WordTokenizer::WordTokenizer(Conn& conn) {
    fts5_api* api = fts5_api_of(conn);
    void* context = nullptr;
    if (api == nullptr || api->xFindTokenizer(api, "unicode61", &context, &module_) != SQLITE_OK ||
        module_.xCreate(context, const_cast<const char**>(kWordTokenizerArgs), 4, &tokenizer_) != SQLITE_OK)
        throw StoreError(MNEMO_E_INTERNAL, "sqlite database " + conn.path() +
                                               ": the FTS5 unicode61 tokenizer is not available; mnemo_sqlite needs "
                                               "an SQLite built with FTS5");
}

WordTokenizer::~WordTokenizer() {
    if (tokenizer_) module_.xDelete(tokenizer_);
}

size_t WordTokenizer::count(std::string_view text) const {
    size_t count = 0;
    module_.xTokenize(tokenizer_, &count, FTS5_TOKENIZE_QUERY, text.data(), static_cast<int>(text.size()), count_token);
    return count;
}

}  // namespace mnemo::sqlite
