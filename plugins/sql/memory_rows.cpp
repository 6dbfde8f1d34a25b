#include "memory_rows.h"

#include "dialect.h"
#include "host_services.h"
#include "memory_stats.h"
#include "term_list.h"

#include <algorithm>
#include <bit>
#include <cstring>

namespace mnemo::sqlcore {
namespace {

static_assert(std::endian::native == std::endian::little, "vectors are stored as float32 little-endian blobs");

std::optional<std::string> optional_text(const Query& query, int column) {
    mnemo_str value = query.str(column);
    return value.ptr ? std::optional<std::string>(std::string(value.ptr, value.len)) : std::nullopt;
}

std::vector<float> vector_of(mnemo_str bytes) {
    std::vector<float> values;
    if (!bytes.ptr) return values;
    values.resize(bytes.len / sizeof(float));
    std::memcpy(values.data(), bytes.ptr, values.size() * sizeof(float));
    return values;
}

Blob blob_of(const std::vector<float>& values) {
    if (values.empty()) return Blob{};
    return Blob{std::string_view(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(float))};
}

mnemo_str opt_str(const std::optional<std::string>& value) {
    return value ? str(*value) : mnemo_str{nullptr, 0};
}

std::optional<MemoryRow> first_row(Query& query) {
    if (!query.step()) return std::nullopt;
    return memory_row(query);
}

// The text index's own column, where triggers do not keep it (mysql).
void index_text(Db& db, const MemoryRow& row) {
    const Dialect& dialect = db.dialect();
    if (!dialect.memory_tokens) return;
    Query(db, dialect.memory_index).args(dialect.memory_tokens(row.text), row.key).run();
}

}  // namespace

void MemoryRow::set_text(std::string_view new_text, std::string_view new_folded_text) {
    text = std::string(new_text);
    folded_text = std::string(new_folded_text);
    terms.reset();
    counted_terms();
}

const std::string& MemoryRow::counted_terms() {
    // BM25's length: the number of host terms (bm25.h).
    if (!terms) terms = host::term_list(text, &word_count);
    return *terms;
}

MemoryRow memory_row(const Query& query) {
    MemoryRow row;
    row.key = query.i64(0);
    row.app = query.text(1);
    row.user = query.text(2);
    row.id = query.text(3);
    row.name_space = query.text(4);
    row.text = query.text(5);
    row.folded_text = optional_text(query, 6);
    row.metadata_json = query.text(7);
    row.session_id = optional_text(query, 8);
    row.source_session = optional_text(query, 9);
    row.source_seq = query.i64(10);
    row.embedding = static_cast<int>(query.i64(11));
    row.embedding_model = optional_text(query, 12);
    row.vector = vector_of(query.str(13));
    row.text_version = query.i64(14);
    row.created_at_us = query.i64(15);
    row.updated_at_us = query.i64(16);
    row.expires_at_us = query.i64(17);
    row.change_seq = query.i64(18);
    row.word_count = query.i64(19);
    return row;
}

FeedClock::FeedClock(Db& db) : db_(db) {
    Query counter(db, with_lock(db, "SELECT last_seq, horizon FROM memory_feed WHERE id = 1"));
    if (!counter.step())
        throw StoreError(MNEMO_E_INTERNAL, std::string(db.dialect().name) +
                                               " backend: the memory_feed row is missing; the schema migration "
                                               "that adds memories did not finish (reopen the store)");
    saved_seq_ = last_seq_ = counter.i64(0);
    saved_horizon_ = horizon_ = counter.i64(1);
}

void FeedClock::forgot(int64_t change_seq) {
    if (change_seq > horizon_) horizon_ = change_seq;
}

void FeedClock::save() {
    if (last_seq_ == saved_seq_ && horizon_ == saved_horizon_) return;
    Query(db_, "UPDATE memory_feed SET last_seq = ?, horizon = ? WHERE id = 1").args(last_seq_, horizon_).run();
    saved_seq_ = last_seq_;
    saved_horizon_ = horizon_;
}

std::optional<MemoryRow> stored_memory(Db& db, mnemo_str app, mnemo_str user, mnemo_str id) {
    Query query(db, with_lock(db, kMemoryByIdSql));
    query.args(app, user, id);
    return first_row(query);
}

std::optional<MemoryRow> live_memory(Db& db, mnemo_str app, mnemo_str user, mnemo_str id, int64_t now_us) {
    std::optional<MemoryRow> row = stored_memory(db, app, user, id);
    return row && row->live(now_us) ? row : std::nullopt;
}

std::optional<MemoryRow> live_memory_by_text(Db& db, mnemo_str app, mnemo_str user, std::string_view name_space,
                                             std::string_view folded_text, int64_t now_us) {
    Query query(db, with_lock(db, kMemoryByTextSql));
    query.args(app, user, name_space, folded_text, now_us);
    return first_row(query);
}

std::optional<MemoryRow> memory_by_key(Db& db, int64_t key) {
    Query query(db, with_lock(db, kMemoryByKeySql));
    query.args(key);
    return first_row(query);
}

std::map<int64_t, MemoryRow> memories_by_keys(Db& db, std::vector<int64_t> keys) {
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    std::map<int64_t, MemoryRow> found;
    for_each_row_in_list(db, kSelectMemoriesSql + "WHERE row_key ", keys, 1, {}, db.writing() ? kForUpdate : "",
                         [&](const Query& rows) {
                             MemoryRow row = memory_row(rows);
                             const int64_t key = row.key;
                             found.emplace(key, std::move(row));
                         });
    return found;
}

void insert_memory(Db& db, FeedClock& clock, MemoryRow& row) {
    row.change_seq = clock.next();
    Query insert(db,
                 "INSERT INTO memories (app, user, id, name_space, text, folded_text, terms, word_count, metadata, "
                 "session_id, source_session, source_seq, embedding, embedding_model, vector_blob, text_version, "
                 "created_at, updated_at, expires_at, change_seq) "
                 "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    const std::string& terms = row.counted_terms();
    insert.args(row.app, row.user, row.id, row.name_space, row.text, opt_str(row.folded_text), terms, row.word_count,
                row.metadata_json, opt_str(row.session_id), opt_str(row.source_session), row.source_seq, row.embedding,
                opt_str(row.embedding_model), blob_of(row.vector), row.text_version, row.created_at_us,
                row.updated_at_us, row.expires_at_us, row.change_seq);
    try {
        insert.run();
    } catch (const StoreError& e) {
        // Another process created the id since this transaction looked: run it again.
        if (!e.duplicate_key()) throw;
        throw StoreError(MNEMO_E_BUSY, "memory " + row.id + " of user " + row.user + " was created concurrently");
    }
    row.key = db.last_insert_id();
    index_text(db, row);
    count_memory_terms(db, row.app, terms, +1);
}

void update_memory(Db& db, FeedClock& clock, MemoryRow& row, bool text_changed) {
    row.change_seq = clock.next();
    Query update(
        db,
        "UPDATE memories SET name_space = ?, text = ?, folded_text = ?, terms = COALESCE(?, terms), word_count = ?, "
        "metadata = ?, session_id = ?, source_session = ?, source_seq = ?, embedding = ?, embedding_model = ?, "
        "vector_blob = ?, text_version = ?, created_at = ?, updated_at = ?, expires_at = ?, change_seq = ? "
        "WHERE row_key = ?");
    // A row read back holds no terms: its stored list stays unless the text changed.
    std::optional<std::string> old_terms;
    if (text_changed) {
        old_terms = stored_term_list(db, row.key);
        row.counted_terms();
    }
    update.args(row.name_space, row.text, opt_str(row.folded_text), opt_str(row.terms), row.word_count,
                row.metadata_json, opt_str(row.session_id), opt_str(row.source_session), row.source_seq,
                row.embedding, opt_str(row.embedding_model), blob_of(row.vector), row.text_version,
                row.created_at_us, row.updated_at_us, row.expires_at_us, row.change_seq, row.key);
    update.run();
    if (!text_changed) return;
    index_text(db, row);
    if (old_terms) count_memory_terms(db, row.app, *old_terms, -1);
    count_memory_terms(db, row.app, *row.terms, +1);
}

void remove_memory(Db& db, FeedClock& clock, const MemoryRow& row, int64_t removed_at_us) {
    if (std::optional<std::string> old_terms = stored_term_list(db, row.key))
        count_memory_terms(db, row.app, *old_terms, -1);
    Query(db, "DELETE FROM memories WHERE row_key = ?").args(row.key).run();
    Query(db, "INSERT INTO memory_removals (change_seq, row_key, app, user, removed_at) VALUES (?, ?, ?, ?, ?)")
        .args(clock.next(), row.key, row.app, row.user, removed_at_us)
        .run();
}

int64_t app_dimension(Db& db, std::string_view app) {
    Query query(db, with_lock(db, "SELECT dimension FROM memory_apps WHERE app = ?"));
    query.args(app);
    return query.step() ? query.i64(0) : 0;
}

void fix_dimension(Db& db, std::string_view app, size_t dims) {
    if (dims == 0 || app_dimension(db, app) > 0) return;
    Query(db, "INSERT INTO memory_apps (app, dimension) VALUES (?, ?)").args(app, static_cast<int64_t>(dims)).run();
}

void set_dimension(Db& db, std::string_view app, int64_t dims) {
    if (app_dimension(db, app) == 0) {
        Query(db, "INSERT INTO memory_apps (app, dimension) VALUES (?, ?)").args(app, dims).run();
        return;
    }
    Query(db, "UPDATE memory_apps SET dimension = ? WHERE app = ?").args(dims, app).run();
}

int64_t purge_user_memories(Db& db, mnemo_str app, mnemo_str user, int64_t now_us) {
    FeedClock clock(db);
    std::vector<MemoryRow> rows;
    {
        Query query(db, with_lock(db, kUserMemoriesSql));
        query.args(app, user);
        while (query.step()) rows.push_back(memory_row(query));
    }
    for (const MemoryRow& row : rows) remove_memory(db, clock, row, now_us);
    clock.save();
    return static_cast<int64_t>(rows.size());
}

namespace {

// At most limit rows of sql (cutoff, limit + 1), with more set when there were more.
template <typename Row, typename Read>
std::vector<Row> due_rows(Db& db, const std::string& sql, int64_t cutoff, int64_t limit, bool& more, Read read) {
    std::vector<Row> rows;
    Query query(db, with_lock(db, sql));
    query.args(cutoff, limit + 1);
    while (query.step()) rows.push_back(read(query));
    if (static_cast<int64_t>(rows.size()) > limit) {
        more = true;
        rows.pop_back();
    }
    return rows;
}

}  // namespace

int64_t sweep_memories(Db& db, const mnemo_sweep_req& req, bool& more) {
    FeedClock clock(db);
    const std::vector<MemoryRow> expired =
        due_rows<MemoryRow>(db, kMemoriesExpiredSql, req.now_us, req.limit, more, memory_row);
    for (const MemoryRow& row : expired) remove_memory(db, clock, row, req.now_us);
    if (req.purge_before_us > 0) {
        const std::vector<int64_t> forgotten = due_rows<int64_t>(
            db, kMemoryRemovalsDueSql, req.purge_before_us, req.limit, more, [](const Query& q) { return q.i64(0); });
        for (int64_t seq : forgotten) {
            Query(db, "DELETE FROM memory_removals WHERE change_seq = ?").args(seq).run();
            clock.forgot(seq);
        }
    }
    clock.save();
    return static_cast<int64_t>(expired.size());
}

void require_memory_limit(const char* operation, int64_t limit) {
    if (limit > 0) return;
    throw StoreError(MNEMO_E_INVALID,
                     std::string(operation) + " limit is " + std::to_string(limit) + "; give at least 1");
}

void throw_memory_not_found(const mnemo_memory_ref& ref) {
    throw StoreError(MNEMO_E_NOT_FOUND, "memory " + text(ref.id) + " of user " + text(ref.user) + " in app " +
                                            text(ref.app) + " not found (deleted or expired?)");
}

void emit_memory(Output& out, const MemoryRow& row, bool with_vector, const MemoryVia& via) {
    out.memory(memory_view(row, with_vector), via);
}

}  // namespace mnemo::sqlcore
