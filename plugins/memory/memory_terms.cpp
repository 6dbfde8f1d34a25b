#include "memory_terms.h"

#include "memories.h"

namespace mnemo::memory {

void TermIndex::add(const MemoryRec& row) {
    for (const auto& [word, count] : row.terms) postings_[word].emplace(&row, count);
    ++documents_;
    words_ += row.word_count;
}

void TermIndex::remove(const MemoryRec& row) {
    for (const auto& [word, count] : row.terms) {
        auto it = postings_.find(word);
        if (it == postings_.end()) continue;
        it->second.erase(&row);
        if (it->second.empty()) postings_.erase(it);
    }
    --documents_;
    words_ -= row.word_count;
}

const MemoryPostings* TermIndex::find(const std::string& word) const {
    auto it = postings_.find(word);
    return it == postings_.end() ? nullptr : &it->second;
}

}  // namespace mnemo::memory
