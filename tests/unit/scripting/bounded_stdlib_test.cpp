// The bounded pattern functions and table.sort: Lua's results and errors, and bounds that fire inside them.
#include "lua_test_util.h"

#include <gmock/gmock.h>

#include <atomic>

namespace mnemo::scripting::testing {
namespace {

using ::testing::HasSubstr;

constexpr int64_t kNoInstructionLimit = 0;
constexpr uint64_t k64MiB = 64u << 20;

TEST(BoundedPatterns, FindAndMatchGiveLuasResults) {
    auto state = make_state();
    EXPECT_EQ(run_chunk(*state, R"(
        local function same(a, b, what) assert(a == b, what .. ': ' .. tostring(a) .. ' ~= ' .. tostring(b)) end
        local i, j = ('hello world'):find('o w') same(i, 5, 'plain i') same(j, 7, 'plain j')
        i, j = ('a.b'):find('.', 1, true) same(i, 2, 'explicit plain')
        i, j = ('hello'):find('l+') same(i, 3, 'l+ i') same(j, 4, 'l+ j')
        same(('hello'):find('xyz'), nil, 'absent')
        same(('hello'):find('', 10), nil, 'init past the end')
        same(('hello'):find('', 6), 6, 'empty at the end')
        same(('hello'):find('l', -2), 4, 'negative init')
        local k, v = ('key = value'):match('(%w+)%s*=%s*(%w+)') same(k, 'key', 'capture 1') same(v, 'value', 'capture 2')
        same(('  trim  '):match('^%s*(.-)%s*$'), 'trim', 'lazy trim')
        same(('[[x]]'):match('%b[]'), '[[x]]', 'balanced')
        same(('THE (quick) fox'):find('%f[%a]%a+%f[%A]', 5), 6, 'frontier')
        same(select(2, ('hello'):match('()ll()')), 5, 'position capture')
        same(('abcabc'):match('(abc)%1'), 'abc', 'back reference')
        same(('x=1, y=2'):match('y=(%d)'), '2', 'digit class')
        same(('a1'):match('^%a%d$'), 'a1', 'anchored')
        same(('a$b'):match('a$b'), 'a$b', 'dollar inside')
        same(('hello'):match('^(h)(e)(l)(l)(o)$'), 'h', 'many captures')
        same(('[]'):match('[]]'), ']', 'bracket class with ]')
        same(('a-z'):match('[a%-z]+'), 'a-z', 'escaped dash')
        same(('ABC'):match('[^%l]+'), 'ABC', 'negated class')
    )"),
              std::nullopt);
}

TEST(BoundedPatterns, GmatchAndGsubGiveLuasResults) {
    auto state = make_state();
    EXPECT_EQ(run_chunk(*state, R"(
        local function same(a, b, what) assert(a == b, what .. ': ' .. tostring(a) .. ' ~= ' .. tostring(b)) end
        local words = {}
        for w in ('one two  three'):gmatch('%a+') do words[#words + 1] = w end
        same(table.concat(words, ','), 'one,two,three', 'gmatch words')
        local pairs_seen = {}
        for k, v in ('a=1,b=2'):gmatch('(%w+)=(%w+)') do pairs_seen[#pairs_seen + 1] = k .. v end
        same(table.concat(pairs_seen, ';'), 'a1;b2', 'gmatch captures')
        local from = {}
        for w in ('ab ab ab'):gmatch('ab', 4) do from[#from + 1] = w end
        same(#from, 2, 'gmatch init')
        local empties = 0
        for _ in ('abc'):gmatch('') do empties = empties + 1 end
        same(empties, 4, 'gmatch empty matches')
        local out, n = ('hello world'):gsub('o', '0') same(out, 'hell0 w0rld', 'gsub string') same(n, 2, 'gsub count')
        same((('hello'):gsub('l', '%0%0')), 'hellllo', 'gsub %0')
        same((('hello world'):gsub('(%w+) (%w+)', '%2 %1')), 'world hello', 'gsub swap')
        same((('abc'):gsub('%w', {a = 'A', b = false})), 'Abc', 'gsub table')
        same((('abc'):gsub('%w', function(c) if c == 'b' then return 'B' end end)), 'aBc', 'gsub function')
        same((('abc'):gsub('', '-')), '-a-b-c-', 'gsub empty pattern')
        same((('aaa'):gsub('a', 'b', 2)), 'bba', 'gsub max')
        same((('aaa'):gsub('^a', 'b')), 'baa', 'gsub anchored')
        same((('x'):gsub('x', '%%')), '%', 'gsub percent')
        same((('abc'):gsub('()b', '%1')), 'a2c', 'gsub position')
    )"),
              std::nullopt);
}

TEST(BoundedPatterns, MalformedPatternsRaiseLuasErrors) {
    auto state = make_state();
    struct Case {
        const char* code;
        const char* error;
    } cases[] = {
        {"('x'):find('[a')", "malformed pattern (missing ']')"},
        {"('x'):find('%')", "malformed pattern (ends with '%')"},
        {"('x'):match('(x')", "unfinished capture"},
        {"('x'):match('x)')", "invalid pattern capture"},
        {"('x'):match('%1')", "invalid capture index %1"},
        {"('x'):gsub('x', '%2')", "invalid capture index %2"},
        {"('x'):gsub('x', '%z')", "invalid use of '%' in replacement string"},
        {"('x'):gsub('x', true)", "string/function/table expected"},
        {"('x'):find('%f')", "missing '[' after '%f' in pattern"},
        {"('x'):find(string.rep('(', 40) .. 'x' .. string.rep(')', 40))", "too many captures"},
        {"string.rep('a', 300):find(string.rep('a?', 300))", "pattern too complex"},
        {"('x'):gsub('x', function() return {} end)", "invalid replacement value (a table)"},
    };
    for (const auto& c : cases) {
        auto error = run_chunk(*state, c.code);
        ASSERT_TRUE(error) << c.code;
        EXPECT_THAT(*error, HasSubstr(c.error)) << c.code;
    }
}

TEST(BoundedPatterns, BacktrackingFindHitsTheInstructionLimit) {
    auto state = make_state({1000000, k64MiB, 0});
    auto error = run_chunk(*state, "local s = string.rep('a', 3000) s:find('.-.-.-.-b')");
    ASSERT_TRUE(error);
    EXPECT_THAT(*error, HasSubstr("scripts.instruction_limit (1000000 instructions)"));
}

TEST(BoundedPatterns, ALongSetInThePatternIsChargedByItsLength) {
    // One step per subject byte would let each step read 100,000 pattern bytes.
    auto state = make_state({1000000, k64MiB, 0});
    auto error = run_chunk(*state, "string.rep('b', 100000):find('[' .. string.rep('a', 100000) .. ']')");
    ASSERT_TRUE(error);
    EXPECT_THAT(*error, HasSubstr("scripts.instruction_limit"));
}

TEST(BoundedPatterns, BacktrackingMatchHitsTheTimeout) {
    auto state = make_state({kNoInstructionLimit, k64MiB, 50000});
    auto error = run_chunk(*state, "local s = string.rep('a', 3000) s:match('(.-)(.-)(.-)(.-)b')");
    ASSERT_TRUE(error);
    EXPECT_THAT(*error, HasSubstr("scripts.timeout (50 ms)"));
}

TEST(BoundedPatterns, PcallAroundGsubCannotSwallowTheLimit) {
    auto state = make_state({1000000, k64MiB, 0});
    auto error = run_chunk(*state, R"(
        local s = string.rep('a', 3000)
        while true do pcall(string.gsub, s, '.-.-.-.-b', 'x') end)");
    ASSERT_TRUE(error);
    EXPECT_THAT(*error, HasSubstr("scripts.instruction_limit"));
}

TEST(BoundedPatterns, GmatchInACoroutineIsCharged) {
    auto state = make_state({1000000, k64MiB, 0});
    auto error = run_chunk(*state, R"(
        local s = string.rep('a', 3000)
        local co = coroutine.wrap(function() for w in s:gmatch('.-.-.-.-b') do end end)
        co())");
    ASSERT_TRUE(error);
    EXPECT_THAT(*error, HasSubstr("scripts.instruction_limit"));
}

TEST(BoundedPatterns, APlainFindOfALongNeedleIsLinear) {
    // Worst case for a naive search: 'aaa...ab' in 'aaa...a'. The step count would stop it; it must not need to.
    auto state = make_state({1000000, k64MiB, 0});
    EXPECT_EQ(run_chunk(*state, R"(
        local hay = string.rep('a', 1000000)
        local needle = string.rep('a', 100000) .. 'b'
        assert(hay:find(needle, 1, true) == nil)
        assert(hay:find(needle) == nil)
    )"),
              std::nullopt);
}

TEST(BoundedPatterns, ACancelledCallStopsInsideAMatch) {
    auto state = make_state({kNoInstructionLimit, k64MiB, 0});
    std::atomic<bool> cancelled{true};
    state->set_cancel(&cancelled, "stopped: the connection closed");
    auto error = run_chunk(*state, "local s = string.rep('a', 3000) s:find('.-.-.-.-b')");
    ASSERT_TRUE(error);
    EXPECT_THAT(*error, HasSubstr("stopped: the connection closed"));
}

TEST(BoundedSort, SortWithoutAComparatorChargesTheBytesItCompares) {
    auto state = make_state({10000000, k64MiB, 0});
    auto error = run_chunk(*state, R"(
        local s = string.rep('a', 1000000)
        local t = {} for i = 1, 100000 do t[i] = s end
        table.sort(t))");
    ASSERT_TRUE(error);
    EXPECT_THAT(*error, HasSubstr("scripts.instruction_limit"));
}

TEST(BoundedSort, SortStillSorts) {
    auto state = make_state();
    EXPECT_EQ(run_chunk(*state, R"(
        local t = {5, 3, 9, 1}
        table.sort(t)
        assert(table.concat(t, ',') == '1,3,5,9')
        table.sort(t, function(a, b) return a > b end)
        assert(table.concat(t, ',') == '9,5,3,1')
        local words = {'pear', 'apple', 'fig'}
        table.sort(words)
        assert(table.concat(words, ',') == 'apple,fig,pear')
        assert(not pcall(table.sort, {1, 'x', 2}))
    )"),
              std::nullopt);
}

TEST(BoundedTable, ShiftingALongTableIsCharged) {
    auto state = make_state({1000000, k64MiB, 0});
    auto error = run_chunk(*state, R"(
        local t = {} for i = 1, 100000 do t[i] = i end
        for i = 1, 100000 do table.insert(t, 1, i) table.remove(t, 1) end)");
    ASSERT_TRUE(error);
    EXPECT_THAT(*error, HasSubstr("scripts.instruction_limit"));
    EXPECT_EQ(run_chunk(*state, R"(
        local t = {1, 2}
        table.insert(t, 3) table.insert(t, 1, 0) assert(table.concat(t, ',') == '0,1,2,3')
        assert(table.remove(t) == 3 and table.remove(t, 1) == 0 and #t == 2)
        local moved = table.move({1, 2, 3}, 1, 3, 2) assert(table.concat(moved, ',') == '1,1,2,3')
        assert(utf8.len('h\u{e9}llo') == 5 and utf8.offset('h\u{e9}llo', 3) == 4)
    )"),
              std::nullopt);
}

TEST(BoundedTable, WalkingALongStringIsCharged) {
    auto state = make_state({1000000, k64MiB, 0});
    auto error = run_chunk(*state, "local s = string.rep('a', 1000000) for i = 1, 1000 do utf8.len(s) end");
    ASSERT_TRUE(error);
    EXPECT_THAT(*error, HasSubstr("scripts.instruction_limit"));
}

TEST(BoundedAllocation, CopyingLargeStringsHitsTheTimeout) {
    auto state = make_state({kNoInstructionLimit, k64MiB, 50000});
    auto error = run_chunk(*state, "local s = string.rep('x', 8000000) while true do local t = s .. 'x' end");
    ASSERT_TRUE(error);
    EXPECT_THAT(*error, HasSubstr("scripts.timeout (50 ms)"));
    EXPECT_EQ(run_chunk(*state, "assert(#(string.rep('y', 1000) .. 'z') == 1001)"), std::nullopt);
}

TEST(BoundedRep, RepGivesLuasResults) {
    auto state = make_state();
    EXPECT_EQ(run_chunk(*state, R"(
        assert(string.rep('ab', 3) == 'ababab')
        assert(string.rep('ab', 3, ', ') == 'ab, ab, ab')
        assert(string.rep('ab', 1, ', ') == 'ab')
        assert(string.rep('ab', 0) == '' and string.rep('ab', -1, 'x') == '')
        assert(string.rep('', 3, '-') == '--')
        assert(('x'):rep(4) == 'xxxx')
        assert(not pcall(string.rep, 'ab', math.maxinteger)))"),
              std::nullopt);
}

// Lua's string.rep loops n times even when there is nothing to copy.
TEST(BoundedRep, AnEmptyRepetitionOfAnyCountIsEmptyAtOnce) {
    auto state = make_state({1000000, k64MiB, 0});
    EXPECT_EQ(run_chunk(*state, "assert(string.rep('', 1e15) == '' and string.rep('', 1e15, '') == '')"), std::nullopt);
}

// Without a memory limit only the charge stops a repetition: Lua's would fill all 2 GB first.
TEST(BoundedRep, AHugeRepetitionWithoutAMemoryLimitHitsTheInstructionLimit) {
    auto state = make_state({1000000, 0, 0});
    auto error = run_chunk(*state, "local s = string.rep('ab', 1e9)");
    ASSERT_TRUE(error);
    EXPECT_THAT(*error, HasSubstr("scripts.instruction_limit"));
    EXPECT_LT(state->memory_used(), 16u << 20);  // the refused result is collected
}

TEST(BoundedRep, AHugeRepetitionWithoutAMemoryLimitHitsTheTimeout) {
    auto state = make_state({kNoInstructionLimit, 0, 1000});
    auto error = run_chunk(*state, "local s = string.rep('ab', 1e9)");
    ASSERT_TRUE(error);
    EXPECT_THAT(*error, HasSubstr("scripts.timeout"));
}

// `s == t` reads both strings in full in one instruction: a state holding 64 MiB is checked every
// instruction, so the timeout stops the loop within a compare or two of it. With the small state's
// tick of 1000 instructions (4 per iteration here) the first check would come after 250 compares.
TEST(BoundedCompare, ComparingLongStringsIsStoppedByTheTimeout) {
    auto state = make_state({kNoInstructionLimit, 0, 0});  // building the strings has no timeout
    ASSERT_EQ(run_chunk(*state, R"(
        local s, t = 'a', 'a'
        for i = 1, 25 do s, t = s .. s, t .. t end
        long = {s, t}
        progress = -1)"),
              std::nullopt);
    state->set_config(
        default_config("scripts: {instruction_limit: 1000000000000, memory_limit: 128MiB, timeout: 100ms}\n"));
    auto error = run_chunk(*state, R"(
        local s, t = long[1], long[2]
        progress = 0
        for i = 1, 1e12 do if s == t then progress = i end end)");
    ASSERT_TRUE(error);
    EXPECT_THAT(*error, HasSubstr("scripts.timeout"));
    EXPECT_EQ(run_chunk(*state, "assert(progress >= 0 and progress < 150, 'compared ' .. progress .. ' times')"),
              std::nullopt);
}

TEST(BoundedJson, EncodingSharedSubtablesStopsAtTheMemoryLimit) {
    auto state = make_state({kNoInstructionLimit, 8u << 20, 0});
    auto error = run_chunk(*state, R"(
        local t = {'x'}
        for i = 1, 40 do t = {t, t} end
        mnemo.json.encode(t))");
    ASSERT_TRUE(error);
    EXPECT_THAT(*error, HasSubstr("the JSON text would be larger than scripts.memory_limit"));
}

}  // namespace
}  // namespace mnemo::scripting::testing
