#include "net/slot_queue.h"

#include <gtest/gtest.h>

namespace mnemo::net {
namespace {

TEST(SlotQueue, FindsSlotsBySeqAcrossGrowthAndWrapAround) {
    SlotQueue queue;
    for (int round = 0; round < 3; ++round) {
        for (int i = 0; i < 5; ++i) {
            std::string id = "id" + std::to_string(queue.next_seq());
            queue.push_back().set_request_id(id);
        }
        while (queue.size() > 2) queue.pop_front();
    }
    EXPECT_EQ(queue.size(), 2u);
    EXPECT_EQ(queue.next_seq(), 15u);
    ASSERT_NE(queue.find(13), nullptr);
    EXPECT_EQ(queue.find(13)->request_id(), "id13");
    EXPECT_EQ(queue.find(14)->request_id(), "id14");
    EXPECT_EQ(queue.find(12), nullptr);
    EXPECT_EQ(queue.find(15), nullptr);
    EXPECT_EQ(queue.front().request_id(), "id13");
}

TEST(SlotQueue, ClientRequestIdUpTo128BytesIsKept) {
    SlotQueue queue;
    std::string id(128, 'z');
    queue.push_back().set_request_id(id);
    EXPECT_EQ(queue.front().request_id(), id);
}

}  // namespace
}  // namespace mnemo::net
