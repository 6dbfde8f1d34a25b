/*
 * memory/embedder.h -- turning texts into vectors (docs/memories.md Embedders).
 *
 * The memory module owns long-term memories' vectors and recall. This part
 * owns the embedder clients: an Embedder takes a list of texts and answers
 * one vector per text, or a failure that says what went wrong. Two kinds
 * (memory.embedder.kind): http, an OpenAI-compatible `POST {url}/embeddings`
 * over libcurl, and command, a program run per call. Both read the same
 * answer shape, `{"data": [{"embedding": [...], "index"?: n}]}`.
 *
 * An Embedder is used by one thread at a time (it keeps its connection
 * between calls) and blocks that thread, so it runs only on embed workers,
 * never on the loop thread. A call ends at the settings' timeout, or within
 * ~50 ms of `cancel` becoming true.
 */
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config/config.h"

namespace mnemo::memory {

using Vector = std::vector<float>;

// The longest answer read from an embedder (about 4000 vectors of 1536 numbers).
inline constexpr size_t kMaxAnswerBytes = size_t{64} << 20;

struct EmbedOutcome {
    std::optional<std::string> error;  // set: no vectors
    std::vector<Vector> vectors;       // one per text, in the order of the texts
};

class Embedder {
public:
    virtual ~Embedder() = default;
    // `settings` is read on each call, so a reload's new api_key, model or
    // timeout applies from the next call on.
    virtual EmbedOutcome embed(const std::vector<std::string>& texts, const config::EmbedderConfig& settings,
                               const std::atomic<bool>& cancel) = 0;
};

// A new client of the configured kind; null for kind none.
std::unique_ptr<Embedder> make_embedder(config::EmbedderConfig::Kind kind);
std::unique_ptr<Embedder> make_http_embedder();
std::unique_ptr<Embedder> make_command_embedder();

// What both kinds send: {"model": ..., "input": [texts]}.
std::string embed_request_body(std::string_view model, const std::vector<std::string>& texts);

// Reads an embeddings answer for `expected` texts: data[i].embedding, put in
// input order by data[i].index when every item has one, else by position.
// Fails on malformed JSON, a count other than `expected`, an index out of
// range or repeated, an empty vector, vectors of different lengths, or a
// number that is not finite as a float. `source` starts each message, e.g.
// "embedder at http://host/v1/embeddings".
EmbedOutcome parse_embed_answer(std::string_view json, size_t expected, std::string_view source);

// At most `max_bytes` of `text` for an error message, cut at a UTF-8
// boundary, with "..." when cut and line breaks shown as spaces.
std::string excerpt(std::string_view text, size_t max_bytes);

}  // namespace mnemo::memory
