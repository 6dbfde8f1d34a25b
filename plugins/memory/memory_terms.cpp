#include "memory_terms.h"

#include "memories.h"

namespace mnemo::memory {

void TermIndex::add(const MemoryRec& row) {
    for (const auto& [term, count] : row.terms) postings_[term].emplace(&row, count);
    ++documents_;
    length_ += row.length;
}

void TermIndex::remove(const MemoryRec& row) {
    for (const auto& [term, count] : row.terms) {
        auto it = postings_.find(term);
        if (it == postings_.end()) continue;
        it->second.erase(&row);
        if (it->second.empty()) postings_.erase(it);
    }
    --documents_;
    length_ -= row.length;
}

const MemoryPostings* TermIndex::find(const std::string& term) const {
    auto it = postings_.find(term);
    return it == postings_.end() ? nullptr : &it->second;
}

}  // namespace mnemo::memory
