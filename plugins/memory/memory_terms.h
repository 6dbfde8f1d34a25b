// memory_terms.h -- the inverted index of keyword recall over memories: for
// one scope (an app, or one user of it), each host term (bm25.h's
// count_terms: folded, stemmed words) mapped to the memories holding it with
// its count, and the scope's totals (memories and terms) that BM25 weighs
// with. MemoryStore keeps one per app and one per user, in step with every
// stored text (expired rows stay until swept; recall discounts them).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

namespace mnemo::memory {

struct MemoryRec;

// The memories holding one term, with its count in each.
using MemoryPostings = std::unordered_map<const MemoryRec*, uint32_t>;

class TermIndex {
public:
    void add(const MemoryRec& row);
    void remove(const MemoryRec& row);
    // The memories holding term, or null when none does.
    const MemoryPostings* find(const std::string& term) const;
    int64_t documents() const { return documents_; }
    // The scope's total length: its texts' terms, repeats counted.
    int64_t length() const { return length_; }

private:
    std::unordered_map<std::string, MemoryPostings> postings_;
    int64_t documents_ = 0, length_ = 0;
};

}  // namespace mnemo::memory
