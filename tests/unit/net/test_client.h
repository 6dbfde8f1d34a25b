#pragma once
// Blocking socket client for the server tests: runs on a helper thread while
// the test thread runs the libuv loop. Responses are parsed with http-parser.

#include <http_parser.h>

#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace mnemo::net::testing {

struct ClientResponse {
    int status = 0;
    std::map<std::string, std::string> headers;  // names lower-cased
    std::string body;
    std::string header(const std::string& name) const {
        auto found = headers.find(name);
        return found == headers.end() ? "" : found->second;
    }
};

// -1 on failure. A receive timeout only keeps a broken test from hanging; no test asserts on time.
int connect_tcp(int port);
int connect_unix(const std::string& path);
int connect_tcp_errno(int port);  // 0 when connected (and closed again), else errno
bool send_all(int fd, std::string_view bytes);
// A GET request for path with Host set; extra: more header lines, each ending in CRLF.
std::string get_request(const std::string& path, const std::string& extra = "");
void reset_and_close(int fd);  // SO_LINGER 0: the peer sees a reset

class ResponseReader {
public:
    explicit ResponseReader(int fd);
    ResponseReader(const ResponseReader&) = delete;
    ResponseReader& operator=(const ResponseReader&) = delete;
    // The next complete response, nullopt when the connection ended first.
    std::optional<ClientResponse> next();
    // True when the server closed the connection and sent nothing more.
    bool at_eof();

private:
    static int on_status(http_parser* parser, const char*, size_t);
    static int on_header_field(http_parser* parser, const char* at, size_t length);
    static int on_header_value(http_parser* parser, const char* at, size_t length);
    static int on_body(http_parser* parser, const char* at, size_t length);
    static int on_message_complete(http_parser* parser);
    bool parse_buffered();

    int fd_;
    http_parser parser_;
    http_parser_settings settings_;
    std::string buffered_;
    ClientResponse current_;
    std::string field_;
    bool in_value_ = false;
    bool complete_ = false;
};

}  // namespace mnemo::net::testing
