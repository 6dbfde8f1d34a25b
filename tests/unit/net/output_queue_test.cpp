#include "net/output_queue.h"

#include <gtest/gtest.h>

#include "net/response_writer.h"

namespace mnemo::net {
namespace {

std::string joined(OutputQueue& queue) {
    std::string out;
    for (const uv_buf_t& buffer : queue.buffers()) out.append(buffer.base, buffer.len);
    return out;
}

Response answer(int status, size_t body_bytes, char fill) {
    Response response;
    response.status = status;
    response.body.assign(body_bytes, fill);
    return response;
}

// Pipelined answers of every shape: the queued buffers carry exactly the
// bytes the one-buffer writer produces.
TEST(OutputQueue, PipelinedAnswersGiveTheSameBytesAsOneBuffer) {
    std::vector<std::pair<Response, ResponseFraming>> answers;
    answers.emplace_back(answer(200, 11, 'a'), ResponseFraming{"id-1", false, false, false});
    answers.emplace_back(answer(200, 70 * 1024, 'b'), ResponseFraming{"id-2", false, false, false});
    answers.emplace_back(answer(204, 5000, 'c'), ResponseFraming{"id-3", false, false, false});
    answers.emplace_back(answer(200, 9000, 'd'), ResponseFraming{"id-4", false, true, true});  // HEAD
    answers.emplace_back(answer(201, OutputQueue::kOwnBufferBytes, 'e'), ResponseFraming{"id-5", false, false, false});
    answers.emplace_back(answer(404, 40, 'f'), ResponseFraming{"id-6", false, false, false});
    answers.back().first.headers.emplace_back("Retry-After", "1");
    answers.emplace_back(answer(200, OutputQueue::kOwnBufferBytes - 1, 'g'),
                         ResponseFraming{"id-7", true, false, false});

    std::string expected;
    OutputQueue queue;
    for (auto& [response, framing] : answers) {
        append_response(expected, response, framing);
        queue_response(queue, Response(response), framing);
    }
    EXPECT_EQ(queue.size(), expected.size());
    EXPECT_EQ(joined(queue), expected);
    // heads+small | 70 KiB | heads (204, HEAD, 201) | 2 KiB | the 404 and the last answer
    EXPECT_EQ(queue.buffers().size(), 5u);
}

TEST(OutputQueue, LargeBodiesAreHandedOverNotCopied) {
    OutputQueue queue;
    Response response = answer(200, 64 * 1024, 'x');
    const char* body = response.body.data();
    queue_response(queue, std::move(response), ResponseFraming{"r", false, false, false});
    const auto& buffers = queue.buffers();
    ASSERT_EQ(buffers.size(), 2u);
    EXPECT_EQ(buffers[1].base, body);
    EXPECT_EQ(buffers[1].len, 64u * 1024);
}

// A write the socket took in part continues from the first unwritten byte,
// wherever it falls: inside the heads, on a buffer's edge, inside a body.
TEST(OutputQueue, APartWrittenQueueGoesOnWithTheRest) {
    std::string expected;
    append_response(expected, answer(200, 3000, 'a'), ResponseFraming{"1", false, false, false});
    append_response(expected, answer(200, 40, 'b'), ResponseFraming{"2", false, false, false});
    for (size_t written : {size_t{0}, size_t{5}, size_t{70}, size_t{100}, size_t{3000}, expected.size() - 1}) {
        OutputQueue queue;
        queue_response(queue, answer(200, 3000, 'a'), ResponseFraming{"1", false, false, false});
        queue_response(queue, answer(200, 40, 'b'), ResponseFraming{"2", false, false, false});
        ASSERT_EQ(queue.buffers().size(), 3u);
        std::string rest;
        for (const uv_buf_t& buffer : queue.skip_written(written)) rest.append(buffer.base, buffer.len);
        EXPECT_EQ(rest, expected.substr(written)) << "after " << written << " bytes";
    }
}

TEST(OutputQueue, ClearedAndSwappedQueuesServeTheNextAnswers) {
    OutputQueue pending;
    OutputQueue writing;
    pending.append(kContinueResponse);
    pending.append_body(std::string(5000, 'y'));
    writing.swap(pending);
    EXPECT_TRUE(pending.empty());
    EXPECT_EQ(writing.size(), kContinueResponse.size() + 5000);
    pending.append("more");
    writing.clear(1 << 20);
    EXPECT_TRUE(writing.empty());
    EXPECT_TRUE(writing.buffers().empty());
    writing.swap(pending);
    EXPECT_EQ(joined(writing), "more");
}

}  // namespace
}  // namespace mnemo::net
