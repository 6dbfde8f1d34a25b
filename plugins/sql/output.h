// output.h -- where an operation's result rows go. Reads write straight into
// the host's mnemo_sink (SinkOutput). Writes may still be rolled back (the
// sqlite writer's group, a retried mysql transaction), so they record deep
// copies (RecordedOutput) that are replayed into the sink only after COMMIT.
#pragma once

#include "mnemo_plugin.h"

#include <array>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace mnemo::sqlcore {

class Output {
public:
    virtual ~Output() = default;
    virtual void session(const mnemo_session& session) = 0;
    virtual void state(int scope, mnemo_str key, mnemo_str value_json) = 0;
    virtual void event(const mnemo_event& event) = 0;
    virtual void summary(const mnemo_summary& summary) = 0;
    virtual void track(const mnemo_track_event& track) = 0;
    virtual void count(const char* name, int64_t value) = 0;
    virtual void lane(const mnemo_lane& lane) = 0;
};

// Forwards to a host sink; a NULL sink or callback drops that kind of row.
class SinkOutput final : public Output {
public:
    explicit SinkOutput(const mnemo_sink* sink) : sink_(sink) {}
    void session(const mnemo_session& session) override;
    void state(int scope, mnemo_str key, mnemo_str value_json) override;
    void event(const mnemo_event& event) override;
    void summary(const mnemo_summary& summary) override;
    void track(const mnemo_track_event& track) override;
    void count(const char* name, int64_t value) override;
    void lane(const mnemo_lane& lane) override;

private:
    const mnemo_sink* sink_;
};

// An owned copy of one ABI struct: its plain fields as they were, its string
// fields (listed by member pointer) copied so "absent" stays apart from "".
template <typename T, size_t N>
class OwnedRow {
public:
    using Fields = std::array<mnemo_str T::*, N>;
    OwnedRow(const T& row, const Fields& fields) : plain_(row), fields_(&fields) {
        for (size_t i = 0; i < N; ++i) {
            const mnemo_str& field = row.*fields[i];
            if (field.ptr) strings_[i] = std::string(field.ptr, field.len);
        }
    }
    T view() const {
        T row = plain_;
        for (size_t i = 0; i < N; ++i)
            row.*(*fields_)[i] =
                strings_[i] ? mnemo_str{strings_[i]->data(), strings_[i]->size()} : mnemo_str{nullptr, 0};
        return row;
    }

private:
    T plain_;
    const Fields* fields_;
    std::array<std::optional<std::string>, N> strings_;
};

class RecordedOutput final : public Output {
public:
    void session(const mnemo_session& session) override;
    void state(int scope, mnemo_str key, mnemo_str value_json) override;
    void event(const mnemo_event& event) override;
    void summary(const mnemo_summary& summary) override;
    void track(const mnemo_track_event& track) override;
    void count(const char* name, int64_t value) override;
    void lane(const mnemo_lane& lane) override;
    void replay(Output& target) const;
    void clear() { rows_.clear(); }

private:
    struct StateRow {
        int scope;
        std::string key, value;
    };
    struct CountRow {
        const char* name;  // always a string literal of the backend
        int64_t value;
    };
    using Row =
        std::variant<OwnedRow<mnemo_session, 6>, StateRow, OwnedRow<mnemo_event, 11>, OwnedRow<mnemo_summary, 3>,
                     OwnedRow<mnemo_track_event, 1>, CountRow, OwnedRow<mnemo_lane, 8>>;
    std::vector<Row> rows_;
};

}  // namespace mnemo::sqlcore
