#include "chunk_shape.h"

#include <lua.hpp>

#include <memory>

namespace mnemo::admin {
namespace {

constexpr std::string_view kEofMark = "<eof>";

struct LuaCloser {
    void operator()(lua_State* L) const { lua_close(L); }
};
using LuaState = std::unique_ptr<lua_State, LuaCloser>;

// LUA_OK, or LUA_ERRSYNTAX with `incomplete` telling whether the message ends
// in <eof> (the parser ran out of text, as lua.c's incomplete() checks).
int compile(lua_State* L, std::string_view source, bool* incomplete) {
    int status = luaL_loadbuffer(L, source.data(), source.size(), "=console");
    *incomplete = false;
    if (status == LUA_ERRSYNTAX) {
        size_t length = 0;
        const char* message = lua_tolstring(L, -1, &length);
        std::string_view text(message ? message : "", message ? length : 0);
        *incomplete = text.size() >= kEofMark.size() && text.substr(text.size() - kEofMark.size()) == kEofMark;
    }
    lua_settop(L, 0);
    return status;
}

bool blank(std::string_view text) {
    return text.find_first_not_of(" \t\r\n") == std::string_view::npos;
}

}  // namespace

ChunkShape classify_chunk(std::string_view source) {
    LuaState state(luaL_newstate());
    if (!state) return ChunkShape::Invalid;  // out of memory: let the server judge the text
    bool incomplete = false;
    std::string as_return = "return " + std::string(source) + ";";
    if (compile(state.get(), as_return, &incomplete) == LUA_OK) return ChunkShape::Expression;
    if (compile(state.get(), source, &incomplete) == LUA_OK) return ChunkShape::Statements;
    return incomplete ? ChunkShape::Incomplete : ChunkShape::Invalid;
}

std::optional<std::string> ChunkAccumulator::add_line(std::string_view line) {
    if (!pending_.empty()) pending_.push_back('\n');
    pending_.append(line);
    if (blank(pending_)) {
        pending_.clear();
        return std::nullopt;
    }
    switch (classify_chunk(pending_)) {
        case ChunkShape::Incomplete:
            return std::nullopt;
        case ChunkShape::Expression: {
            std::string chunk = "return " + pending_ + ";";
            pending_.clear();
            return chunk;
        }
        case ChunkShape::Statements:
        case ChunkShape::Invalid:
            break;
    }
    std::string chunk = std::move(pending_);
    pending_.clear();
    return chunk;
}

}  // namespace mnemo::admin
