// string.find, match, gmatch and gsub with a step count, and table.sort's
// default comparison charged by the bytes it reads (bounded_stdlib.h).
// The matcher is Lua 5.4's (lstrlib.c, Copyright (C) 1994-2022 Lua.org,
// PUC-Rio, MIT licence) with a step counter added; its results and error
// messages are Lua's own. A Lua error here unwinds with longjmp, so no
// frame below keeps a local with a destructor.
#include "scripting/bounded_stdlib.h"

#include "scripting/script_state.h"

#include <cctype>
#include <cstring>
#include <limits>

namespace mnemo::scripting {
namespace {

constexpr char kEsc = '%';
constexpr const char* kSpecials = "^$*+?.([%-";
constexpr int kMaxMatchDepth = 200;  // Lua's MAXCCALLS: nesting of the matcher's recursion
constexpr int kMaxCaptures = 32;     // Lua's LUA_MAXCAPTURES
constexpr ptrdiff_t kCapUnfinished = -1;
constexpr ptrdiff_t kCapPosition = -2;
// Steps between two checks of the bounds: a check reads the clock.
constexpr int64_t kStepsPerCharge = 4096 * kPatternStepsPerInstruction;

struct MatchState {
    const char* src_init;
    const char* src_end;
    const char* p_end;
    lua_State* L;
    int matchdepth;
    int level;
    int64_t steps;
    struct {
        const char* init;
        ptrdiff_t len;
    } capture[kMaxCaptures];
};

unsigned char uchar(char c) {
    return static_cast<unsigned char>(c);
}

// Counts `n` steps; every kStepsPerCharge of them go to the state's bounds, which may raise.
void step(MatchState* ms, int64_t n = 1) {
    ms->steps += n;
    if (ms->steps < kStepsPerCharge) return;
    int64_t instructions = ms->steps / kPatternStepsPerInstruction;
    ms->steps -= instructions * kPatternStepsPerInstruction;
    ScriptState::charge(ms->L, instructions);
}

const char* match(MatchState* ms, const char* s, const char* p);

// Charges a linear C call's `steps` up front; short ones go free, as an instruction's own work does.
void charge_steps(lua_State* L, int64_t steps) {
    constexpr int64_t kFreeSteps = 1024;
    if (steps > kFreeSteps) ScriptState::charge(L, steps / kPatternStepsPerInstruction);
}

int check_capture(MatchState* ms, int l) {
    l -= '1';
    if (l < 0 || l >= ms->level || ms->capture[l].len == kCapUnfinished)
        return luaL_error(ms->L, "invalid capture index %%%d", l + 1);
    return l;
}

int capture_to_close(MatchState* ms) {
    for (int level = ms->level - 1; level >= 0; level--) {
        if (ms->capture[level].len == kCapUnfinished) return level;
    }
    return luaL_error(ms->L, "invalid pattern capture");
}

const char* class_end(MatchState* ms, const char* p) {
    switch (*p++) {
        case kEsc:
            if (p == ms->p_end) luaL_error(ms->L, "malformed pattern (ends with '%%')");
            return p + 1;
        case '[': {
            const char* start = p;
            if (*p == '^') p++;
            do {  // look for a ']'
                if (p == ms->p_end) luaL_error(ms->L, "malformed pattern (missing ']')");
                if (*(p++) == kEsc && p < ms->p_end) p++;  // skip escapes (e.g. '%]')
            } while (*p != ']');
            step(ms, p - start);  // a set in the pattern may be long, and is read at every step
            return p + 1;
        }
        default:
            return p;
    }
}

bool match_class(int c, int cl) {
    bool res;
    switch (std::tolower(cl)) {
        case 'a':
            res = std::isalpha(c);
            break;
        case 'c':
            res = std::iscntrl(c);
            break;
        case 'd':
            res = std::isdigit(c);
            break;
        case 'g':
            res = std::isgraph(c);
            break;
        case 'l':
            res = std::islower(c);
            break;
        case 'p':
            res = std::ispunct(c);
            break;
        case 's':
            res = std::isspace(c);
            break;
        case 'u':
            res = std::isupper(c);
            break;
        case 'w':
            res = std::isalnum(c);
            break;
        case 'x':
            res = std::isxdigit(c);
            break;
        default:
            return cl == c;
    }
    return std::isupper(cl) ? !res : res;
}

bool match_bracket_class(int c, const char* p, const char* ec) {
    bool sig = true;
    if (*(p + 1) == '^') {
        sig = false;
        p++;
    }
    while (++p < ec) {
        if (*p == kEsc) {
            p++;
            if (match_class(c, uchar(*p))) return sig;
        } else if (*(p + 1) == '-' && (p + 2 < ec)) {
            p += 2;
            if (uchar(*(p - 2)) <= c && c <= uchar(*p)) return sig;
        } else if (uchar(*p) == c) {
            return sig;
        }
    }
    return !sig;
}

bool single_match(MatchState* ms, const char* s, const char* p, const char* ep) {
    if (s >= ms->src_end) return false;
    int c = uchar(*s);
    switch (*p) {
        case '.':
            return true;
        case kEsc:
            return match_class(c, uchar(*(p + 1)));
        case '[':
            step(ms, ep - p);
            return match_bracket_class(c, p, ep - 1);
        default:
            return uchar(*p) == c;
    }
}

const char* match_balance(MatchState* ms, const char* s, const char* p) {
    if (p >= ms->p_end - 1) luaL_error(ms->L, "malformed pattern (missing arguments to '%%b')");
    if (s >= ms->src_end || *s != *p) return nullptr;
    char open = *p, close = *(p + 1);
    int depth = 1;
    while (++s < ms->src_end) {
        step(ms);
        if (*s == close) {
            if (--depth == 0) return s + 1;
        } else if (*s == open) {
            depth++;
        }
    }
    return nullptr;  // the subject ends out of balance
}

const char* max_expand(MatchState* ms, const char* s, const char* p, const char* ep) {
    ptrdiff_t i = 0;
    while (single_match(ms, s + i, p, ep)) {
        step(ms);
        i++;
    }
    while (i >= 0) {  // try the longest repetition first, then one fewer
        if (const char* res = match(ms, s + i, ep + 1)) return res;
        i--;
    }
    return nullptr;
}

const char* min_expand(MatchState* ms, const char* s, const char* p, const char* ep) {
    for (;;) {
        if (const char* res = match(ms, s, ep + 1)) return res;
        if (!single_match(ms, s, p, ep)) return nullptr;
        s++;  // one more repetition
    }
}

const char* start_capture(MatchState* ms, const char* s, const char* p, ptrdiff_t what) {
    if (ms->level >= kMaxCaptures) luaL_error(ms->L, "too many captures");
    ms->capture[ms->level].init = s;
    ms->capture[ms->level].len = what;
    ms->level++;
    const char* res = match(ms, s, p);
    if (res == nullptr) ms->level--;  // undo the capture
    return res;
}

const char* end_capture(MatchState* ms, const char* s, const char* p) {
    int l = capture_to_close(ms);
    ms->capture[l].len = s - ms->capture[l].init;
    const char* res = match(ms, s, p);
    if (res == nullptr) ms->capture[l].len = kCapUnfinished;
    return res;
}

const char* match_capture(MatchState* ms, const char* s, int l) {
    l = check_capture(ms, l);
    auto len = static_cast<size_t>(ms->capture[l].len);
    step(ms, static_cast<int64_t>(len));
    if (static_cast<size_t>(ms->src_end - s) >= len && std::memcmp(ms->capture[l].init, s, len) == 0) return s + len;
    return nullptr;
}

// Lua's do_match, with `goto init` for its tail calls.
const char* match(MatchState* ms, const char* s, const char* p) {
    if (ms->matchdepth-- == 0) luaL_error(ms->L, "pattern too complex");
init:
    step(ms);
    if (p != ms->p_end) {
        switch (*p) {
            case '(':
                s = *(p + 1) == ')' ? start_capture(ms, s, p + 2, kCapPosition)
                                    : start_capture(ms, s, p + 1, kCapUnfinished);
                break;
            case ')':
                s = end_capture(ms, s, p + 1);
                break;
            case '$':
                if ((p + 1) != ms->p_end) goto dflt;  // not the last char: a plain '$'
                s = (s == ms->src_end) ? s : nullptr;
                break;
            case kEsc:
                switch (*(p + 1)) {
                    case 'b':
                        s = match_balance(ms, s, p + 2);
                        if (s != nullptr) {
                            p += 4;
                            goto init;
                        }
                        break;
                    case 'f': {
                        p += 2;
                        if (*p != '[') luaL_error(ms->L, "missing '[' after '%%f' in pattern");
                        const char* ep = class_end(ms, p);
                        char previous = (s == ms->src_init) ? '\0' : *(s - 1);
                        char current = (s < ms->src_end) ? *s : '\0';
                        if (!match_bracket_class(uchar(previous), p, ep - 1) &&
                            match_bracket_class(uchar(current), p, ep - 1)) {
                            p = ep;
                            goto init;
                        }
                        s = nullptr;
                        break;
                    }
                    case '0':
                    case '1':
                    case '2':
                    case '3':
                    case '4':
                    case '5':
                    case '6':
                    case '7':
                    case '8':
                    case '9':
                        s = match_capture(ms, s, uchar(*(p + 1)));
                        if (s != nullptr) {
                            p += 2;
                            goto init;
                        }
                        break;
                    default:
                        goto dflt;
                }
                break;
            default:
            dflt : {
                const char* ep = class_end(ms, p);  // points to the optional suffix
                if (!single_match(ms, s, p, ep)) {
                    if (*ep == '*' || *ep == '?' || *ep == '-') {  // accepts empty
                        p = ep + 1;
                        goto init;
                    }
                    s = nullptr;  // '+' or no suffix
                } else {
                    switch (*ep) {
                        case '?':
                            if (const char* res = match(ms, s + 1, ep + 1)) {
                                s = res;
                            } else {
                                p = ep + 1;
                                goto init;
                            }
                            break;
                        case '+':
                            s = max_expand(ms, s + 1, p, ep);
                            break;
                        case '*':
                            s = max_expand(ms, s, p, ep);
                            break;
                        case '-':
                            s = min_expand(ms, s, p, ep);
                            break;
                        default:
                            s++;
                            p = ep;
                            goto init;
                    }
                }
                break;
            }
        }
    }
    ms->matchdepth++;
    return s;
}

// The length of capture i, or kCapPosition with the position pushed; *cap points at its text.
ptrdiff_t get_one_capture(MatchState* ms, int i, const char* s, const char* e, const char** cap) {
    if (i >= ms->level) {
        if (i != 0) luaL_error(ms->L, "invalid capture index %%%d", i + 1);
        *cap = s;
        return e - s;
    }
    ptrdiff_t len = ms->capture[i].len;
    *cap = ms->capture[i].init;
    if (len == kCapUnfinished) luaL_error(ms->L, "unfinished capture");
    if (len == kCapPosition) lua_pushinteger(ms->L, (ms->capture[i].init - ms->src_init) + 1);
    return len;
}

void push_one_capture(MatchState* ms, int i, const char* s, const char* e) {
    const char* cap = nullptr;
    ptrdiff_t len = get_one_capture(ms, i, s, e, &cap);
    if (len != kCapPosition) lua_pushlstring(ms->L, cap, static_cast<size_t>(len));
}

int push_captures(MatchState* ms, const char* s, const char* e) {
    int count = (ms->level == 0 && s != nullptr) ? 1 : ms->level;
    luaL_checkstack(ms->L, count, "too many captures");
    for (int i = 0; i < count; i++) push_one_capture(ms, i, s, e);
    return count;
}

bool no_specials(const char* p, size_t length) {
    size_t upto = 0;
    do {
        if (std::strpbrk(p + upto, kSpecials) != nullptr) return false;
        upto += std::strlen(p + upto) + 1;  // the pattern may hold '\0's
    } while (upto <= length);
    return true;
}

void prepare(MatchState* ms, lua_State* L, const char* s, size_t ls, const char* p, size_t lp) {
    ms->L = L;
    ms->matchdepth = kMaxMatchDepth;
    ms->src_init = s;
    ms->src_end = s + ls;
    ms->p_end = p + lp;
    ms->level = 0;
    ms->steps = 0;
}

// A 1-based start position (negative: from the end) as an offset into a subject of `length`.
size_t start_offset(lua_Integer position, size_t length) {
    if (position > 0) return static_cast<size_t>(position) - 1;
    if (position == 0 || position < -static_cast<lua_Integer>(length)) return 0;
    return length + static_cast<size_t>(position);
}

int find_or_match(lua_State* L, bool find) {
    size_t ls = 0, lp = 0;
    const char* s = luaL_checklstring(L, 1, &ls);
    const char* p = luaL_checklstring(L, 2, &lp);
    size_t init = start_offset(luaL_optinteger(L, 3, 1), ls);
    if (init > ls) {
        luaL_pushfail(L);
        return 1;
    }
    if (find && (lua_toboolean(L, 4) || no_specials(p, lp))) {
        // memmem is glibc's two-way search: linear, charged by the bytes it may read.
        charge_steps(L, static_cast<int64_t>(ls - init));
        const void* hit = lp == 0 ? s + init : memmem(s + init, ls - init, p, lp);
        if (hit == nullptr) {
            luaL_pushfail(L);
            return 1;
        }
        auto at = static_cast<const char*>(hit) - s;
        lua_pushinteger(L, at + 1);
        lua_pushinteger(L, static_cast<lua_Integer>(at + lp));
        return 2;
    }
    MatchState ms;
    const char* s1 = s + init;
    bool anchor = *p == '^';
    if (anchor) {
        p++;
        lp--;
    }
    prepare(&ms, L, s, ls, p, lp);
    do {
        ms.level = 0;
        if (const char* res = match(&ms, s1, p)) {
            if (!find) return push_captures(&ms, s1, res);
            lua_pushinteger(L, (s1 - s) + 1);
            lua_pushinteger(L, res - s);
            return push_captures(&ms, nullptr, nullptr) + 2;
        }
    } while (s1++ < ms.src_end && !anchor);
    luaL_pushfail(L);
    return 1;
}

int str_find(lua_State* L) {
    return find_or_match(L, true);
}

int str_match(lua_State* L) {
    return find_or_match(L, false);
}

struct GMatchState {
    const char* src;
    const char* p;
    const char* lastmatch;
    MatchState ms;
};

int gmatch_next(lua_State* L) {
    auto* gm = static_cast<GMatchState*>(lua_touserdata(L, lua_upvalueindex(3)));
    gm->ms.L = L;  // the iterator may run in another coroutine than the one that made it
    for (const char* src = gm->src; src <= gm->ms.src_end; src++) {
        gm->ms.level = 0;
        const char* e = match(&gm->ms, src, gm->p);
        if (e != nullptr && e != gm->lastmatch) {
            gm->src = gm->lastmatch = e;
            return push_captures(&gm->ms, src, e);
        }
    }
    return 0;
}

int str_gmatch(lua_State* L) {
    size_t ls = 0, lp = 0;
    const char* s = luaL_checklstring(L, 1, &ls);
    const char* p = luaL_checklstring(L, 2, &lp);
    size_t init = start_offset(luaL_optinteger(L, 3, 1), ls);
    lua_settop(L, 2);  // the closure keeps both strings alive
    auto* gm = static_cast<GMatchState*>(lua_newuserdatauv(L, sizeof(GMatchState), 0));
    if (init > ls) init = ls + 1;
    prepare(&gm->ms, L, s, ls, p, lp);
    gm->src = s + init;
    gm->p = p;
    gm->lastmatch = nullptr;
    lua_pushcclosure(L, gmatch_next, 3);
    return 1;
}

// Appends a replacement string with its %0-%9 and %% escapes.
void add_string(MatchState* ms, luaL_Buffer* b, const char* s, const char* e) {
    lua_State* L = ms->L;
    size_t l = 0;
    const char* news = lua_tolstring(L, 3, &l);
    step(ms, static_cast<int64_t>(l));
    const char* p;
    while ((p = static_cast<const char*>(std::memchr(news, kEsc, l))) != nullptr) {
        luaL_addlstring(b, news, static_cast<size_t>(p - news));
        p++;
        if (*p == kEsc) {
            luaL_addchar(b, *p);
        } else if (*p == '0') {
            luaL_addlstring(b, s, static_cast<size_t>(e - s));
        } else if (std::isdigit(uchar(*p))) {
            const char* cap = nullptr;
            ptrdiff_t len = get_one_capture(ms, *p - '1', s, e, &cap);
            if (len == kCapPosition) {
                luaL_addvalue(b);
            } else {
                luaL_addlstring(b, cap, static_cast<size_t>(len));
            }
        } else {
            luaL_error(L, "invalid use of '%c' in replacement string", kEsc);
        }
        l -= static_cast<size_t>(p + 1 - news);
        news = p + 1;
    }
    luaL_addlstring(b, news, l);
}

// Appends the replacement of one match; false when the match's text was kept.
bool add_value(MatchState* ms, luaL_Buffer* b, const char* s, const char* e, int kind) {
    lua_State* L = ms->L;
    if (kind == LUA_TFUNCTION) {
        lua_pushvalue(L, 3);
        int n = push_captures(ms, s, e);
        lua_call(L, n, 1);
    } else if (kind == LUA_TTABLE) {
        push_one_capture(ms, 0, s, e);
        lua_gettable(L, 3);
    } else {
        add_string(ms, b, s, e);
        return true;
    }
    if (!lua_toboolean(L, -1)) {
        lua_pop(L, 1);
        luaL_addlstring(b, s, static_cast<size_t>(e - s));
        return false;
    }
    if (!lua_isstring(L, -1)) luaL_error(L, "invalid replacement value (a %s)", luaL_typename(L, -1));
    luaL_addvalue(b);
    return true;
}

int str_gsub(lua_State* L) {
    size_t srcl = 0, lp = 0;
    const char* src = luaL_checklstring(L, 1, &srcl);
    const char* p = luaL_checklstring(L, 2, &lp);
    const char* lastmatch = nullptr;
    int kind = lua_type(L, 3);
    lua_Integer max_s = luaL_optinteger(L, 4, static_cast<lua_Integer>(srcl) + 1);
    bool anchor = *p == '^';
    lua_Integer n = 0;
    bool changed = false;
    luaL_argexpected(L, kind == LUA_TNUMBER || kind == LUA_TSTRING || kind == LUA_TFUNCTION || kind == LUA_TTABLE, 3,
                     "string/function/table");
    MatchState ms;
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    if (anchor) {
        p++;
        lp--;
    }
    prepare(&ms, L, src, srcl, p, lp);
    while (n < max_s) {
        ms.level = 0;
        const char* e = match(&ms, src, p);
        if (e != nullptr && e != lastmatch) {
            n++;
            changed = add_value(&ms, &b, src, e, kind) || changed;
            src = lastmatch = e;
        } else if (src < ms.src_end) {
            luaL_addchar(&b, *src++);
        } else {
            break;
        }
        if (anchor) break;
    }
    if (!changed) {
        lua_pushvalue(L, 1);
    } else {
        luaL_addlstring(&b, src, static_cast<size_t>(ms.src_end - src));
        luaL_pushresult(&b);
    }
    lua_pushinteger(L, n);
    return 2;
}

// string.rep(s, n [, sep]): Lua's, but charged by the bytes it copies as it copies them. Lua's
// allocates the whole result at once and then fills it with no instruction run, so with
// scripts.memory_limit 0 one call could fill gigabytes past every bound; and an empty s and sep were
// repeated n times, however large n, without allocating anything.
int str_rep(lua_State* L) {
    constexpr size_t kMaxResult = static_cast<size_t>(std::numeric_limits<int>::max());  // Lua's MAXSIZE
    constexpr size_t kBytesPerCharge = 1u << 20;
    size_t length = 0, separator_length = 0;
    const char* text = luaL_checklstring(L, 1, &length);
    lua_Integer count = luaL_checkinteger(L, 2);
    const char* separator = luaL_optlstring(L, 3, "", &separator_length);
    size_t unit = length + separator_length;
    if (count <= 0 || unit == 0) {
        lua_pushliteral(L, "");
        return 1;
    }
    if (unit > kMaxResult / static_cast<size_t>(count)) return luaL_error(L, "resulting string too large");
    size_t total = static_cast<size_t>(count) * length + static_cast<size_t>(count - 1) * separator_length;
    luaL_Buffer buffer;
    char* at = luaL_buffinitsize(L, &buffer, total);
    size_t uncharged = 0;
    for (lua_Integer i = 0; i < count; ++i) {
        if (i > 0 && separator_length > 0) {
            std::memcpy(at, separator, separator_length);
            at += separator_length;
        }
        std::memcpy(at, text, length);
        at += length;
        uncharged += unit;
        if (uncharged >= kBytesPerCharge) {
            ScriptState::charge(L, static_cast<int64_t>(uncharged) / kPatternStepsPerInstruction);
            uncharged = 0;
        }
    }
    charge_steps(L, static_cast<int64_t>(uncharged));
    luaL_pushresultsize(&buffer, total);
    return 1;
}

// table.sort's default order, charging the bytes a string comparison reads.
int charged_less_than(lua_State* L) {
    size_t bytes = 0;
    for (int i = 1; i <= 2; ++i) {
        if (lua_type(L, i) == LUA_TSTRING) bytes += lua_rawlen(L, i);
    }
    ScriptState::charge(L, 1 + static_cast<int64_t>(bytes) / kPatternStepsPerInstruction);
    lua_pushboolean(L, lua_compare(L, 1, 2, LUA_OPLT));
    return 1;
}

// table.sort(t [, comp]): Lua's sort, with charged_less_than when no comparator is given.
int sort_charged(lua_State* L) {
    if (lua_isnoneornil(L, 2)) {
        lua_settop(L, 1);
        lua_pushcfunction(L, charged_less_than);
    }
    return call_wrapped(L, 0);
}

// The steps of the calls that shift, move or walk a whole table or string in place, without allocating.
int64_t length_of_first(lua_State* L) {
    int type = lua_type(L, 1);
    return type == LUA_TSTRING || type == LUA_TTABLE ? static_cast<int64_t>(lua_rawlen(L, 1)) : 0;
}
int64_t insert_steps(lua_State* L) {  // table.insert(t, pos, v) shifts; table.insert(t, v) appends
    return lua_gettop(L) >= 3 ? length_of_first(L) : 0;
}
int64_t remove_steps(lua_State* L) {  // table.remove(t, pos) shifts; table.remove(t) pops
    return lua_gettop(L) >= 2 ? length_of_first(L) : 0;
}
int64_t move_steps(lua_State* L) {  // table.move(a1, f, e, t [, a2])
    lua_Integer first = luaL_optinteger(L, 2, 0), last = luaL_optinteger(L, 3, 0);
    return last >= first ? static_cast<int64_t>(last - first) + 1 : 0;
}

// A library function, charged its steps before it runs.
template <int64_t (*steps)(lua_State*)>
int charged(lua_State* L) {
    charge_steps(L, steps(L));
    return call_wrapped(L);
}

void wrap(lua_State* L, int library, const char* name, lua_CFunction wrapper) {
    lua_getfield(L, library, name);
    lua_pushcclosure(L, wrapper, 1);
    lua_setfield(L, library, name);
}

}  // namespace

void install_bounded_stdlib(lua_State* L, int string_index, int table_index, int utf8_index) {
    string_index = lua_absindex(L, string_index);
    table_index = lua_absindex(L, table_index);
    utf8_index = lua_absindex(L, utf8_index);
    constexpr luaL_Reg kFunctions[] = {
        {"find", str_find}, {"match", str_match}, {"gmatch", str_gmatch}, {"gsub", str_gsub}, {"rep", str_rep}};
    for (const auto& function : kFunctions) {
        lua_pushcfunction(L, function.func);
        lua_setfield(L, string_index, function.name);
    }
    wrap(L, table_index, "sort", sort_charged);
    wrap(L, table_index, "insert", charged<insert_steps>);
    wrap(L, table_index, "remove", charged<remove_steps>);
    wrap(L, table_index, "move", charged<move_steps>);
    wrap(L, utf8_index, "len", charged<length_of_first>);
    wrap(L, utf8_index, "offset", charged<length_of_first>);
}

int call_wrapped(lua_State* L, int nresults) {
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, nresults);
    return lua_gettop(L);
}

}  // namespace mnemo::scripting
