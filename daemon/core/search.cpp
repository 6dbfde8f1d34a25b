// The search operation: storage's grouped hits turned into docs/api.md's answer.
#include "core/search.h"

#include "core/json_writer.h"
#include "core/render.h"
#include "core/search_text.h"
#include "core/search_words.h"
#include "core/service_util.h"

#include <cstddef>
#include <fmt/format.h>

namespace mnemo::core {
namespace {

namespace sw = search_words;

struct Hit {
    int64_t seq = 0;
    std::string role;
    Excerpt excerpt;
    std::string context = "[";  // JSON array, closed when written
};

struct Group {
    std::string session;  // JSON object
    std::vector<Hit> hits;
};

// Receives the search op's stream: session(), then per hit search_hit(),
// then that hit's context events.
struct Results {
    const sw::Query* query = nullptr;
    std::vector<Group> groups;
    bool protocol_broken = false;

    static Results& of(void* ctx) { return *static_cast<Results*>(ctx); }
    static void on_session(void* ctx, const mnemo_session* s);
    static void on_hit(void* ctx, int64_t seq);
    static void on_event(void* ctx, const mnemo_event* e);

    mnemo_sink sink() {
        mnemo_sink out{};
        out.ctx = this;
        out.session = on_session;
        out.search_hit = on_hit;
        out.event = on_event;
        out.state = [](void*, int, mnemo_str, mnemo_str) {};
        out.summary = [](void*, const mnemo_summary*) {};
        out.track = [](void*, const mnemo_track_event*) {};
        out.lane = [](void*, const mnemo_lane*) {};
        return out;
    }
};

void Results::on_session(void* ctx, const mnemo_session* s) {
    using storage::view;
    Group group;
    JsonWriter w(group.session);
    w.begin_object().field("app", view(s->app)).field("user", view(s->user)).field("id", view(s->id));
    w.field("title", view(s->title)).key("updated_at");
    write_timestamp(w, s->updated_at_us);
    w.raw_field("metadata", s->metadata_json.ptr ? view(s->metadata_json) : std::string_view("{}"));
    w.field("event_count", s->event_count).end_object();
    of(ctx).groups.push_back(std::move(group));
}

void Results::on_hit(void* ctx, int64_t seq) {
    Results& self = of(ctx);
    if (self.groups.empty()) {
        self.protocol_broken = true;
        return;
    }
    self.groups.back().hits.push_back(Hit{seq, {}, {}, "["});
}

void Results::on_event(void* ctx, const mnemo_event* e) {
    Results& self = of(ctx);
    if (self.groups.empty() || self.groups.back().hits.empty()) {
        self.protocol_broken = true;
        return;
    }
    Hit& hit = self.groups.back().hits.back();
    JsonWriter w(hit.context);
    if (hit.context.size() > 1) hit.context.push_back(',');
    write_event(w, *e);
    if (e->seq != hit.seq) return;
    using storage::view;
    auto opt = [](mnemo_str s) { return s.ptr ? std::optional<std::string_view>(view(s)) : std::nullopt; };
    std::string text = search_text(opt(e->content_json), opt(e->tool_calls_json), opt(e->media_json));
    hit.role = std::string(view(e->role));
    hit.excerpt = excerpt_of(*self.query, text);
}

void write_results(JsonWriter& w, std::vector<Group>& groups) {
    w.begin_object().key("results").begin_array();
    for (Group& group : groups) {
        w.begin_object().raw_field("session", group.session).key("hits").begin_array();
        for (Hit& hit : group.hits) {
            hit.context.push_back(']');
            w.begin_object().field("seq", hit.seq).field("role", hit.role).field("excerpt", hit.excerpt.text);
            w.key("highlights").begin_array();
            for (const auto& [start, end] : hit.excerpt.highlights)
                w.begin_array().integer(static_cast<int64_t>(start)).integer(static_cast<int64_t>(end)).end_array();
            w.end_array().raw_field("context", hit.context).end_object();
        }
        w.end_array().end_object();
    }
    w.end_array().end_object();
}

mnemo_str opt_arg(const std::optional<std::string>& value) {
    return value ? storage::str(*value) : storage::absent();
}

// Start of the code point holding byte `pos` (pos itself when it starts one).
size_t char_start(std::string_view text, size_t pos) {
    while (pos > 0 && pos < text.size() && (static_cast<unsigned char>(text[pos]) & 0xC0) == 0x80) --pos;
    return pos;
}

size_t chars_in(std::string_view text) {
    size_t n = 0;
    for (unsigned char c : text) n += (c & 0xC0) != 0x80 ? 1 : 0;
    return n;
}

// Moves `pos` by up to `chars` code points (backwards when back), within text.
size_t step_chars(std::string_view text, size_t pos, size_t chars, bool back, size_t& used) {
    used = 0;
    while (used < chars && (back ? pos > 0 : pos < text.size())) {
        pos = back ? char_start(text, pos - 1) : pos + sw::decode(text, pos).length;
        ++used;
    }
    return pos;
}

}  // namespace

bool has_search_op(const storage::Backend& backend) {
    const mnemo_storage_ops& ops = backend.ops();
    bool in_table = ops.ops_size >= offsetof(mnemo_storage_ops, search) + sizeof(ops.search);
    return (backend.descriptor().capabilities & MNEMO_CAP_SEARCH) != 0 && in_table && ops.search != nullptr;
}

namespace {

// The byte range [start, end) of text an excerpt of [begin, begin + length) keeps.
sw::Span excerpt_range(std::string_view text, size_t begin, size_t length) {
    begin = std::min(begin, text.size());
    length = std::min(length, text.size() - begin);
    size_t budget = kExcerptChars - std::min(kExcerptChars, chars_in(text.substr(begin, length)));
    size_t used_before = 0, used_after = 0;
    // About a third of the room goes before the match, the rest after; what
    // one side cannot use goes to the other.
    size_t start = step_chars(text, begin, budget / 3, true, used_before);
    size_t end = step_chars(text, begin + length, budget - used_before, false, used_after);
    start = step_chars(text, start, budget - used_before - used_after, true, used_before);
    return sw::Span{start, end};
}

std::string plain(std::string_view text) {
    std::string out(text);
    for (char& c : out) {
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) c = ' ';
    }
    return out;
}

// What a matched span stands for, so that a word found twice counts once.
std::string span_key(std::string_view text, const sw::Span& span) {
    std::string key(text.substr(span.begin, span.end - span.begin));
    for (char& c : key) c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 0x20) : c;
    return key;
}

// Windows are sought among the first spans only: a long text repeating the
// query's words would make the search quadratic in its length.
constexpr size_t kWindowSpans = 256;

// The run of spans [first, last] holding the most distinct keys within
// kExcerptChars code points, the earliest of the best (among the first
// kWindowSpans spans).
std::pair<size_t, size_t> best_window(std::string_view text, const std::vector<sw::Span>& all_spans) {
    const auto considered = static_cast<std::ptrdiff_t>(std::min(all_spans.size(), kWindowSpans));
    const std::vector<sw::Span> spans(all_spans.begin(), all_spans.begin() + considered);
    std::vector<std::string> keys;
    keys.reserve(spans.size());
    for (const sw::Span& span : spans) keys.push_back(span_key(text, span));
    std::pair<size_t, size_t> best{0, 0};
    size_t best_distinct = 0;
    for (size_t first = 0; first < spans.size(); ++first) {
        std::vector<std::string_view> seen;
        for (size_t last = first; last < spans.size(); ++last) {
            const size_t end = std::max(spans[last].end, spans[first].end);
            if (last > first && chars_in(text.substr(spans[first].begin, end - spans[first].begin)) > kExcerptChars)
                break;
            if (std::find(seen.begin(), seen.end(), keys[last]) == seen.end()) seen.push_back(keys[last]);
            if (seen.size() > best_distinct) {
                best_distinct = seen.size();
                best = {first, last};
            }
        }
    }
    return best;
}

}  // namespace

std::string excerpt(std::string_view text, size_t begin, size_t length) {
    const sw::Span range = excerpt_range(text, begin, length);
    return plain(text.substr(range.begin, range.end - range.begin));
}

Excerpt excerpt_of(const sw::Query& query, std::string_view text) {
    const std::vector<sw::Span> spans = sw::matched_spans(query, text);
    if (spans.empty()) return Excerpt{excerpt(text, 0, 0), {}};
    const auto [first, last] = best_window(text, spans);
    size_t window_end = spans[first].end;
    for (size_t s = first; s <= last; ++s) window_end = std::max(window_end, spans[s].end);
    const sw::Span range = excerpt_range(text, spans[first].begin, window_end - spans[first].begin);
    Excerpt out{plain(text.substr(range.begin, range.end - range.begin)), {}};
    for (const sw::Span& span : spans) {
        if (span.begin < range.begin || span.end > range.end) continue;
        const size_t start = chars_in(text.substr(range.begin, span.begin - range.begin));
        out.highlights.emplace_back(start, start + chars_in(text.substr(span.begin, span.end - span.begin)));
    }
    return out;
}

std::optional<Error> check_search_query(std::string_view q) {
    if (chars_in(q) > kSearchMaxQueryChars) {
        return invalid(fmt::format("q: at most {} characters, got {}; search for a shorter phrase",
                                   kSearchMaxQueryChars, chars_in(q)));
    }
    for (unsigned char c : q) {
        if ((c < 0x20 && c != '\t') || c == 0x7F) return invalid("q: must not contain control characters");
    }
    return std::nullopt;
}

Outcome search(const Env& env, const SearchInput& in) {
    if (!has_search_op(env.backend)) {
        return Outcome::fail(
            invalid(fmt::format("the storage plugin '{}' does not support search; configure a "
                                "storage plugin with search (memory, sqlite)",
                                env.backend.descriptor().name)));
    }
    sw::Query query = sw::parse_query(in.q, in.match);
    std::string_view trimmed = in.q;
    auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; };
    while (!trimmed.empty() && space(trimmed.front())) trimmed.remove_prefix(1);
    while (!trimmed.empty() && space(trimmed.back())) trimmed.remove_suffix(1);
    mnemo_search_req req{};
    req.app = storage::str(in.app);
    req.q = storage::str(trimmed);
    req.user = opt_arg(in.user);
    req.channel = opt_arg(in.channel);
    req.role = opt_arg(in.role);
    req.exclude_session = opt_arg(in.exclude_session);
    req.limit = in.limit;
    req.max_hits = in.max_hits;
    req.context = in.context;
    req.now_us = env.clock.now_us();
    req.match = in.match == sw::MatchMode::All ? MNEMO_MATCH_ALL : MNEMO_MATCH_ANY;
    req.order = in.order_by_time ? MNEMO_ORDER_TIME : MNEMO_ORDER_RELEVANCE;
    Results results;
    results.query = &query;
    mnemo_sink sink = results.sink();
    if (auto failed = run_storage(
            env, [&](mnemo_error* err) { return env.backend.ops().search(env.backend.handle(), &req, &sink, err); })) {
        return *failed;
    }
    if (results.protocol_broken) {
        return Outcome::fail(Error{ErrorCode::Internal,
                                   "the storage plugin answered search out of order (a hit before its session)", "{}"});
    }
    std::string body;
    JsonWriter w(body);
    write_results(w, results.groups);
    return Outcome::ok(std::move(body));
}

}  // namespace mnemo::core
