#include "net/response_writer.h"

#include <gtest/gtest.h>

namespace mnemo::net {
namespace {

TEST(ResponseWriter, WritesStatusLineTypeLengthIdAndBody) {
    Response response;
    response.status = 201;
    response.body = "{\"ok\":true}";
    response.headers.emplace_back("Location", "/x");
    std::string out = "prefix|";
    append_response(out, response, ResponseFraming{"id-1", false, false, false});
    EXPECT_EQ(out,
              "prefix|HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nContent-Length: 11\r\n"
              "X-Request-Id: id-1\r\nLocation: /x\r\n\r\n{\"ok\":true}");
}

TEST(ResponseWriter, NoContentHasNoBodyNoTypeNoLength) {
    Response response;
    response.status = 204;
    response.body = "ignored";
    std::string out;
    append_response(out, response, ResponseFraming{"r", true, false, false});
    EXPECT_EQ(out, "HTTP/1.1 204 No Content\r\nX-Request-Id: r\r\nConnection: close\r\n\r\n");
}

TEST(ResponseWriter, HeadKeepsTheLengthAndDropsTheBody) {
    Response response;
    response.body = "abcd";
    std::string out;
    append_response(out, response, ResponseFraming{"r", false, true, true});
    EXPECT_EQ(out,
              "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 4\r\nX-Request-Id: r\r\n"
              "Connection: keep-alive\r\n\r\n");
}

TEST(ResponseWriter, ReasonPhrases) {
    EXPECT_EQ(reason_phrase(413), "Payload Too Large");
    EXPECT_EQ(reason_phrase(431), "Request Header Fields Too Large");
    EXPECT_EQ(reason_phrase(429), "Too Many Requests");
    EXPECT_EQ(reason_phrase(299), "Unknown");
}

}  // namespace
}  // namespace mnemo::net
