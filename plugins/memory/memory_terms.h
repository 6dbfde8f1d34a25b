// memory_terms.h -- the inverted index of keyword recall over memories: for
// one scope (an app, or one user of it), each folded word mapped to the
// memories holding it with its count, and the scope's totals (memories and
// words) that BM25 weighs with. MemoryStore keeps one per app and one per
// user, in step with every stored text (expired rows stay until swept;
// recall discounts them).
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>

namespace mnemo::memory {

struct MemoryRec;

// The memories holding one word, with its count in each.
using MemoryPostings = std::unordered_map<const MemoryRec*, uint32_t>;

class TermIndex {
public:
    void add(const MemoryRec& row);
    void remove(const MemoryRec& row);
    // The memories holding word, or null when none does.
    const MemoryPostings* find(const std::string& word) const;
    int64_t documents() const { return documents_; }
    int64_t words() const { return words_; }

private:
    std::unordered_map<std::string, MemoryPostings> postings_;
    int64_t documents_ = 0, words_ = 0;
};

}  // namespace mnemo::memory
