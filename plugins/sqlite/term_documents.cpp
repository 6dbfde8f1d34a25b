#include "term_documents.h"

#include "connection.h"

namespace mnemo::sqlite {
namespace {

constexpr const char* kStructureSql = "SELECT block FROM events_words_data WHERE id = 10";
constexpr const char* kTermSql = "SELECT doc FROM temp.events_words_terms WHERE term = ?1";
// A connection asked about this many distinct terms since the index last
// changed starts over, so a long read-only spell cannot grow it unbounded.
constexpr size_t kMaxTerms = 100000;

}  // namespace

const char* const TermDocuments::kVocabularySql =
    "CREATE VIRTUAL TABLE IF NOT EXISTS temp.events_words_terms USING fts5vocab(main, 'events_words', 'row')";

std::vector<double> TermDocuments::of(Conn& conn, const std::vector<std::string>& terms) {
    Query structure(conn, kStructureSql);
    const std::string record = structure.step() ? structure.text(0) : std::string();
    if (record != structure_ || counts_.size() > kMaxTerms) {
        counts_.clear();
        structure_ = record;
    }
    std::vector<double> counts;
    for (const std::string& term : terms) {
        auto known = counts_.find(term);
        if (known == counts_.end()) {
            Query count(conn, kTermSql);
            count.args(term);
            known = counts_.emplace(term, count.step() ? static_cast<double>(count.i64(0)) : 0).first;
        }
        counts.push_back(known->second);
    }
    return counts;
}

}  // namespace mnemo::sqlite
