#include "transcript_index.h"

#include "host_services.h"

#include <algorithm>

#ifdef __GLIBC__
#include <malloc.h>
#endif

namespace mnemo::sqlcore {

std::optional<uint32_t> TranscriptIndex::slot_of(int64_t sid) const {
    auto it = slots_.find(sid);
    if (it == slots_.end()) return std::nullopt;
    return it->second;
}

uint32_t TranscriptIndex::open(int64_t sid, std::string_view user) {
    if (auto slot = slot_of(sid)) return *slot;
    uint32_t slot = 0;
    if (!free_slots_.empty()) {
        slot = free_slots_.back();
        free_slots_.pop_back();
    } else {
        slot = static_cast<uint32_t>(sessions_.size());
        sessions_.emplace_back();
    }
    sessions_[slot] = Session{};
    sessions_[slot].sid = sid;
    sessions_[slot].user = std::string(user);
    slots_.emplace(sid, slot);
    return slot;
}

void TranscriptIndex::clear(uint32_t slot) {
    Session& session = sessions_[slot];
    for (Ordinal ordinal : session.ordinals) by_ordinal_[ordinal].slot = kDeadSlot;
    dead_ += session.ordinals.size();
    const int64_t sid = session.sid;
    std::string user = std::move(session.user);
    session = Session{};
    session.sid = sid;
    session.user = std::move(user);
}

void TranscriptIndex::drop(uint32_t slot) {
    clear(slot);
    slots_.erase(sessions_[slot].sid);
    sessions_[slot] = Session{};
    free_slots_.push_back(slot);
}

uint32_t TranscriptIndex::intern_role(std::string_view role) {
    if (std::optional<uint32_t> id = role_id(role)) return *id;
    const auto id = static_cast<uint32_t>(role_ids_.size());
    role_ids_.emplace(role, id);
    return id;
}

std::optional<uint32_t> TranscriptIndex::role_id(std::string_view role) const {
    auto it = role_ids_.find(role);
    if (it == role_ids_.end()) return std::nullopt;
    return it->second;
}

TranscriptIndex::Postings& TranscriptIndex::postings_of(std::string_view term) {
    auto it = terms_.find(term);
    if (it == terms_.end()) it = terms_.emplace(term, Postings{}).first;
    return it->second;
}

// Each term is filed as the text is split (no copy of it is kept): its
// list takes the ordinal when it first occurs, and its count once the
// text is read.
void TranscriptIndex::add(uint32_t slot, const Read& event) {
    Session& session = sessions_[slot];
    session.visible += 1;
    session.max_seq = std::max(session.max_seq, event.seq);
    if (event.text.empty()) return;
    const auto ordinal = static_cast<Ordinal>(by_ordinal_.size());
    uint32_t length = 0;
    adding_.clear();
    occurrences_.clear();
    host::for_each_term(event.text, [&](size_t, size_t, std::string_view term) {
        ++length;
        Postings& list = postings_of(term);
        if (!list.ordinals.empty() && list.ordinals.back() == ordinal) {
            ++occurrences_[list.adding];
            return;
        }
        list.adding = static_cast<uint32_t>(adding_.size());
        list.ordinals.push_back(ordinal);
        adding_.push_back(&list);
        occurrences_.push_back(1);
    });
    for (size_t i = 0; i < adding_.size(); ++i) {
        Postings& list = *adding_[i];
        const uint32_t count = occurrences_[i];
        list.counts.push_back(static_cast<uint8_t>(std::min<uint32_t>(count, kBigCount)));
        if (count >= kBigCount) big_counts_[&list][ordinal] = count;
        list.max_count = std::max(list.max_count, count);
        list.min_length = std::min(list.min_length, length);
    }
    if (!event.counted) session.uncounted_length += length;
    by_ordinal_.push_back(ByOrdinal{slot, length});
    seqs_.push_back(event.seq);
    roles_.push_back(intern_role(event.role));
    session.ordinals.push_back(ordinal);
}

const TranscriptIndex::Postings* TranscriptIndex::find(std::string_view term) const {
    auto it = terms_.find(term);
    return it == terms_.end() ? nullptr : &it->second;
}

size_t TranscriptIndex::postings_of(const std::vector<std::string>& terms) const {
    size_t postings = 0;
    for (const std::string& term : terms)
        if (const Postings* list = find(term)) postings += list->ordinals.size();
    return postings;
}

uint32_t TranscriptIndex::count(const Postings& list, size_t i) const {
    if (list.counts[i] != kBigCount) return list.counts[i];
    return big_counts_.at(&list).at(list.ordinals[i]);
}

void TranscriptIndex::pack_if_sparse() {
    if (by_ordinal_.size() > 1024 && dead_ * 2 > by_ordinal_.size()) renumber();
}

void TranscriptIndex::shrink() {
    for (auto& [term, list] : terms_) {
        list.ordinals.shrink_to_fit();
        list.counts.shrink_to_fit();
    }
    by_ordinal_.shrink_to_fit();
    seqs_.shrink_to_fit();
    roles_.shrink_to_fit();
#ifdef __GLIBC__
    // The lists' outgrown buffers are free now but scattered through the
    // heap: hand their pages back.
    malloc_trim(0);
#endif
}

// The live ordinals renumbered densely in their order; the lists keep their
// live postings, their bounds counted afresh.
void TranscriptIndex::renumber() {
    std::vector<Ordinal> renumbered(by_ordinal_.size(), kDeadSlot);
    std::vector<ByOrdinal> by_ordinal;
    std::vector<int64_t> seqs;
    std::vector<uint32_t> roles;
    for (Ordinal ordinal = 0; ordinal < by_ordinal_.size(); ++ordinal) {
        if (by_ordinal_[ordinal].slot == kDeadSlot) continue;
        renumbered[ordinal] = static_cast<Ordinal>(by_ordinal.size());
        by_ordinal.push_back(by_ordinal_[ordinal]);
        seqs.push_back(seqs_[ordinal]);
        roles.push_back(roles_[ordinal]);
    }
    for (Session& session : sessions_)
        for (Ordinal& ordinal : session.ordinals) ordinal = renumbered[ordinal];
    decltype(big_counts_) big_counts;
    for (auto it = terms_.begin(); it != terms_.end();) {
        Postings& list = it->second;
        Postings kept;
        for (size_t i = 0; i < list.ordinals.size(); ++i) {
            const Ordinal ordinal = renumbered[list.ordinals[i]];
            if (ordinal == kDeadSlot) continue;
            const uint32_t count = this->count(list, i);
            kept.ordinals.push_back(ordinal);
            kept.counts.push_back(list.counts[i]);
            if (list.counts[i] == kBigCount) big_counts[&list][ordinal] = count;
            kept.max_count = std::max(kept.max_count, count);
            kept.min_length = std::min(kept.min_length, by_ordinal[ordinal].length);
        }
        list = std::move(kept);
        if (list.ordinals.empty()) {
            big_counts.erase(&list);
            it = terms_.erase(it);
        } else {
            ++it;
        }
    }
    big_counts_ = std::move(big_counts);
    by_ordinal_ = std::move(by_ordinal);
    seqs_ = std::move(seqs);
    roles_ = std::move(roles);
    dead_ = 0;
}

}  // namespace mnemo::sqlcore
