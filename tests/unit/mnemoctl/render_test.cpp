#include "render.h"

#include <gtest/gtest.h>

#include <string>
#include <variant>

namespace mnemo::admin {
namespace {

std::string text(const std::string& json) {
    auto rendered = render_result(json, OutputFormat::Text);
    EXPECT_TRUE(std::holds_alternative<std::string>(rendered)) << json;
    return std::holds_alternative<std::string>(rendered) ? std::get<std::string>(rendered) : "";
}

std::string json_lines(const std::string& json) {
    auto rendered = render_result(json, OutputFormat::Json);
    EXPECT_TRUE(std::holds_alternative<std::string>(rendered)) << json;
    return std::holds_alternative<std::string>(rendered) ? std::get<std::string>(rendered) : "";
}

TEST(RenderText, ScalarsAsLuaPrintsThem) {
    EXPECT_EQ(text("[42]"), "42\n");
    EXPECT_EQ(text("[-7]"), "-7\n");
    EXPECT_EQ(text("[1.5]"), "1.5\n");
    EXPECT_EQ(text("[3.0]"), "3.0\n");
    EXPECT_EQ(text("[0.1]"), "0.1\n");
    EXPECT_EQ(text("[18446744073709551615]"), "18446744073709551615\n");
    EXPECT_EQ(text("[true,false]"), "true\nfalse\n");
    EXPECT_EQ(text("[null]"), "nil\n");
}

TEST(RenderText, StringsWithoutQuotes) {
    EXPECT_EQ(text(R"(["hello \"you\""])"), "hello \"you\"\n");
    EXPECT_EQ(text(R"([""])"), "\n");
}

TEST(RenderText, TextThatEndsItsLineIsNotGivenAnother) {
    EXPECT_EQ(text(R"(["stats()  the daemon's numbers\nsweep()  runs a sweep\n"])"),
              "stats()  the daemon's numbers\nsweep()  runs a sweep\n");
}

TEST(RenderText, NothingReturnedPrintsNothing) {
    EXPECT_EQ(text("[]"), "");
}

TEST(RenderText, EachValueInTurn) {
    EXPECT_EQ(text(R"([1,"two",null,{"a":1}])"), "1\ntwo\nnil\n{ a = 1 }\n");
}

TEST(RenderText, TablesAsLuaLiterals) {
    EXPECT_EQ(text(R"([{"a":1,"b":[2,3]}])"), "{ a = 1, b = { 2, 3 } }\n");
    EXPECT_EQ(text(R"([[1,"x",true,null]])"), "{ 1, \"x\", true, nil }\n");
    EXPECT_EQ(text("[{}]"), "{}\n");
    EXPECT_EQ(text(R"([{"last_sweep":{"at":"2024-05-01T10:00:00Z","ms":0.5}}])"),
              "{ last_sweep = { at = \"2024-05-01T10:00:00Z\", ms = 0.5 } }\n");
}

TEST(RenderText, KeysThatAreNotNamesAreBracketed) {
    EXPECT_EQ(text(R"([{"end":1,"a-b":2,"_ok9":3,"9lives":4,"":5}])"),
              "{ [\"end\"] = 1, [\"a-b\"] = 2, _ok9 = 3, [\"9lives\"] = 4, [\"\"] = 5 }\n");
}

TEST(RenderText, StringsInsideTablesAreQuotedAndEscaped) {
    EXPECT_EQ(text(R"([["say \"hi\"\n","tab\there","back\\slash","\u0001"]])"),
              "{ \"say \\\"hi\\\"\\n\", \"tab\\there\", \"back\\\\slash\", \"\\001\" }\n");
}

// Found by the lua_literal fuzz target: "\u0002" then "8" was written \28, which
// Lua reads as one escape (byte 28; past 255, a syntax error).
TEST(RenderText, ControlBytesBeforeDigitsStayOneByte) {
    EXPECT_EQ(text(R"([["\u00028","\u001f9x"]])"), "{ \"\\0028\", \"\\0319x\" }\n");
}

TEST(RenderText, LongTablesOneEntryPerLine) {
    std::string json = R"([{"uptime_seconds":12,"version":"0.1.0","plugin":"sqlite","connections":3,)"
                       R"("last_sweep":{"expired":1,"purged":0,"finalized":1,"ms":4}}])";
    EXPECT_EQ(text(json),
              "{\n"
              "  uptime_seconds = 12,\n"
              "  version = \"0.1.0\",\n"
              "  plugin = \"sqlite\",\n"
              "  connections = 3,\n"
              "  last_sweep = { expired = 1, purged = 0, finalized = 1, ms = 4 }\n"
              "}\n");
}

TEST(RenderText, NestedTablesBreakOnlyWhereTheyDoNotFit) {
    std::string json = R"([{"short":[1,2],"long":{"first_key_with_a_long_name":"a value that is long",)"
                       R"("second_key_with_a_long_name":"another value that is long"}}])";
    EXPECT_EQ(text(json),
              "{\n"
              "  short = { 1, 2 },\n"
              "  long = {\n"
              "    first_key_with_a_long_name = \"a value that is long\",\n"
              "    second_key_with_a_long_name = \"another value that is long\"\n"
              "  }\n"
              "}\n");
}

TEST(RenderText, RowsAsAlignedTable) {
    std::string json = R"([[{"app":"shop","user":"u1","id":"s1","events":3,"updated_at":"2024-05-01T10:00:00Z"},)"
                       R"({"app":"shop","user":"alice","id":"s22","events":120,"updated_at":"2024-05-01T11:00:00Z"}]])";
    EXPECT_EQ(text(json),
              "app   user   id   events  updated_at\n"
              "----  -----  ---  ------  --------------------\n"
              "shop  u1     s1        3  2024-05-01T10:00:00Z\n"
              "shop  alice  s22     120  2024-05-01T11:00:00Z\n");
}

TEST(RenderText, RowsHeaderIsTheUnionOfKeysFirstRowFirst) {
    std::string json = R"([[{"b":1,"a":"x"},{"c":true,"a":"y"},{"d":null}]])";
    EXPECT_EQ(text(json),
              "b  a  c     d\n"
              "-  -  ----  ---\n"
              "1  x\n"
              "   y  true\n"
              "            nil\n");
}

TEST(RenderText, RowCellsHoldTablesOnOneLineAndTextWithoutBreaks) {
    std::string json = R"([[{"name":"sqlite","capabilities":["search","export"],"note":"two\nlines"}]])";
    EXPECT_EQ(text(json),
              "name    capabilities            note\n"
              "------  ----------------------  ---------\n"
              "sqlite  { \"search\", \"export\" }  two lines\n");
}

TEST(RenderText, RowsAlignByCharactersNotBytes) {
    EXPECT_EQ(text(R"([[{"user":"jürgen","n":1},{"user":"bo","n":2}]])"),
              "user    n\n"
              "------  -\n"
              "jürgen  1\n"
              "bo      2\n");
}

TEST(RenderText, ArraysMixingRowsAndOtherValuesAreLiterals) {
    EXPECT_EQ(text(R"([[{"a":1},2]])"), "{ { a = 1 }, 2 }\n");
    EXPECT_EQ(text(R"([[{},{}]])"), "{ {}, {} }\n");
}

TEST(RenderJson, OneCompactDocumentPerValue) {
    EXPECT_EQ(json_lines(R"([1, "a", {"x": [1, 2]}, null, true, 2.5])"), "1\n\"a\"\n{\"x\":[1,2]}\nnull\ntrue\n2.5\n");
    EXPECT_EQ(json_lines("[{}]"), "{}\n");
    EXPECT_EQ(json_lines(R"([[{"app":"shop","events":3}]])"), "[{\"app\":\"shop\",\"events\":3}]\n");
}

TEST(RenderJson, NothingReturnedPrintsNothing) {
    EXPECT_EQ(json_lines("[]"), "");
}

TEST(Render, ResultThatIsNotAJsonArrayIsAnError) {
    for (auto format : {OutputFormat::Text, OutputFormat::Json}) {
        auto not_json = render_result("[1,", format);
        ASSERT_TRUE(std::holds_alternative<RenderError>(not_json));
        EXPECT_EQ(std::get<RenderError>(not_json).message, "mnemod sent a result that is not JSON: [1,");
        auto not_array = render_result(R"({"a":1})", format);
        ASSERT_TRUE(std::holds_alternative<RenderError>(not_array));
        EXPECT_EQ(std::get<RenderError>(not_array).message, "mnemod sent a result that is not a JSON array: {\"a\":1}");
    }
}

}  // namespace
}  // namespace mnemo::admin
