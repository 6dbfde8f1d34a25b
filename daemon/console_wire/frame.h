/*
 * console_wire/frame.h -- the framing of the admin socket, shared by mnemod
 * and mnemoctl.
 *
 * Owns how console messages are cut out of a byte stream. A frame is a
 * header line and a payload:
 *
 *     <type> SP <length> LF <payload: exactly <length> bytes>
 *
 * <type> is a lowercase ASCII word, <length> a decimal byte count (at most
 * kMaxPayload). Because the payload length is given up front, a payload may
 * hold any bytes: multi-line Lua chunks, results with newlines, NULs. There
 * is no terminator after the payload; the next header follows directly.
 *
 * The conversation (client -> server, then server -> client):
 *
 *   hello    server, on accept: JSON {"version": "...", "plugin": "..."}
 *   chunk    client: "<chunkname>\n<Lua source>"; chunkname is what error
 *            messages show ("=console", "@file.lua")
 *   print    server, zero or more while a chunk runs: one line of print()
 *   result   server, ends a chunk: a JSON array of the returned values
 *            (nil as null; a table with keys 1..n only as an array, an
 *            empty table as {}; other tables as objects)
 *   error    server, ends a chunk that failed: the message, with the
 *            chunk's line ("console:3: attempt to call a nil value");
 *            also sent, not tied to a chunk, just before the server closes
 *            a connection whose stream is malformed or has a frame type
 *            other than chunk and names
 *   names    client: empty payload; server answers names: the global
 *            names callable in the console, one per line, dotted for
 *            members ("sessions.list")
 *   refused  server, instead of hello, before closing: why the peer is
 *            not served
 *
 * Every chunk gets exactly one result or error, in the order chunks were
 * sent.
 */
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mnemo::console_wire {

inline constexpr size_t kMaxPayload = 64u << 20;  // a chunk or result above this is refused
inline constexpr size_t kMaxHeader = 32;          // "<type> <length>\n"

struct Frame {
    std::string type;
    std::string payload;
};

// The bytes of one frame.
std::string encode(std::string_view type, std::string_view payload);

// Cuts frames out of a stream fed in pieces of any size.
class Decoder {
public:
    // Appends bytes; complete frames are moved to `out`. Returns an error
    // message for a malformed stream (the connection should be closed).
    std::optional<std::string> feed(std::string_view bytes, std::vector<Frame>& out);
    // Bytes of an unfinished frame are held.
    bool idle() const { return buffer_.empty() && !pending_; }

private:
    std::optional<std::string> parse_header(size_t newline);

    std::string buffer_;
    std::optional<Frame> pending_;  // header read, payload incomplete
    size_t pending_length_ = 0;
};

}  // namespace mnemo::console_wire
