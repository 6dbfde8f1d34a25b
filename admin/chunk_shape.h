/*
 * chunk_shape.h -- when the lines typed at the console form a chunk to send.
 *
 * Owns the lua REPL's rules for interactive input, decided by compiling the
 * text locally (luaL_loadbuffer, nothing runs): text that compiles as
 * `return <text>;` is an expression and is sent that way, so `1+1` prints 2;
 * text that compiles as it is is a block of statements; text whose syntax
 * error ends in `<eof>` is incomplete and continues on the next line; any
 * other syntax error is sent as it is, so the server reports it with the
 * chunk's line like every other error.
 */
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace mnemo::admin {

enum class ChunkShape { Expression, Statements, Incomplete, Invalid };

ChunkShape classify_chunk(std::string_view source);

// Collects typed lines until they form a chunk.
class ChunkAccumulator {
public:
    // Adds one line; returns the source to send once the lines held form a
    // chunk (then nothing is held any more), nullopt while it is incomplete
    // or when only blank lines were typed.
    std::optional<std::string> add_line(std::string_view line);
    // Lines are held: the prompt is the continuation prompt.
    bool continuing() const { return !pending_.empty(); }
    void clear() { pending_.clear(); }

private:
    std::string pending_;
};

}  // namespace mnemo::admin
