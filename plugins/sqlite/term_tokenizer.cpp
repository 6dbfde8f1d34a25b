#include "term_tokenizer.h"

#include "host_services.h"

#include <vector>

namespace mnemo::sqlite {
namespace {

fts5_api* fts5_api_of(sqlite3* db) {
    fts5_api* api = nullptr;
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &stmt, nullptr) == SQLITE_OK) {
        sqlite3_bind_pointer(stmt, 1, static_cast<void*>(&api), "fts5_api_ptr", nullptr);
        sqlite3_step(stmt);
    }
    sqlite3_finalize(stmt);
    return api;
}

// The tokenizer has no options and no state: one static instance.
Fts5Tokenizer* const kInstance = reinterpret_cast<Fts5Tokenizer*>(const_cast<char*>(kTermTokenizerName));

int create(void*, const char** /*args*/, int n_args, Fts5Tokenizer** out) {
    if (n_args != 0) return SQLITE_ERROR;
    *out = kInstance;
    return SQLITE_OK;
}

void destroy(Fts5Tokenizer*) {}

using TokenFn = int (*)(void*, int, const char*, int, int, int);

int tokenize(Fts5Tokenizer*, void* ctx, int flags, const char* text, int length, TokenFn token) {
    if (length <= 0) return SQLITE_OK;
    if ((flags & FTS5_TOKENIZE_QUERY) != 0) return token(ctx, 0, text, length, 0, length);
    int rc = SQLITE_OK;
    const std::string_view document(text, static_cast<size_t>(length));
    host::for_each_term(document, [&](size_t begin, size_t end, std::string_view term) {
        if (rc != SQLITE_OK) return;
        rc = token(ctx, 0, term.data(), static_cast<int>(term.size()), static_cast<int>(begin),
                   static_cast<int>(end));
    });
    return rc;
}

void counts(const Fts5ExtensionApi* api, Fts5Context* fts, sqlite3_context* ctx, int n_args, sqlite3_value**) {
    if (n_args != 0) {
        sqlite3_result_error(ctx, "mnemo_counts takes no argument", -1);
        return;
    }
    const int phrases = api->xPhraseCount(fts);
    std::vector<int64_t> out(2 + static_cast<size_t>(phrases), 0);
    sqlite3_int64 rows = 0;
    int length = 0, instances = 0;
    int rc = api->xRowCount(fts, &rows);
    if (rc == SQLITE_OK) rc = api->xColumnSize(fts, -1, &length);
    if (rc == SQLITE_OK) rc = api->xInstCount(fts, &instances);
    for (int i = 0; rc == SQLITE_OK && i < instances; ++i) {
        int phrase = 0, column = 0, offset = 0;
        rc = api->xInst(fts, i, &phrase, &column, &offset);
        if (rc == SQLITE_OK && phrase >= 0 && phrase < phrases) ++out[2 + static_cast<size_t>(phrase)];
    }
    if (rc != SQLITE_OK) {
        sqlite3_result_error_code(ctx, rc);
        return;
    }
    out[0] = rows;
    out[1] = length;
    sqlite3_result_blob(ctx, out.data(), static_cast<int>(out.size() * sizeof(int64_t)), SQLITE_TRANSIENT);
}

}  // namespace

bool register_term_tokenizer(sqlite3* db) {
    fts5_api* api = fts5_api_of(db);
    if (api == nullptr) return false;
    fts5_tokenizer module{create, destroy, tokenize};
    return api->xCreateTokenizer(api, kTermTokenizerName, nullptr, &module, nullptr) == SQLITE_OK &&
           api->xCreateFunction(api, kCountsFunction, nullptr, counts, nullptr) == SQLITE_OK;
}

}  // namespace mnemo::sqlite
