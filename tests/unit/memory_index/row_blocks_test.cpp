// RowBlocks keeps every row's floats where push_back put them across block
// boundaries, truncate keeps exactly the first rows (and more can follow),
// and for_each_run walks the rows in order.

#include "memory/row_blocks.h"

#include <gtest/gtest.h>

#include <vector>

namespace mnemo::memory {
namespace {

std::vector<float> row_values(size_t row, size_t floats) {
    std::vector<float> values(floats);
    for (size_t i = 0; i < floats; ++i) values[i] = static_cast<float>(row * 1000 + i);
    return values;
}

TEST(RowBlocksTest, RowsKeepTheirValuesAcrossBlocks) {
    const size_t floats = 384;  // about 1,365 rows a block
    RowBlocks rows(floats);
    for (size_t r = 0; r < 5000; ++r) rows.push_back(row_values(r, floats).data());
    ASSERT_EQ(rows.size(), 5000u);
    for (size_t r : {0, 1, 1364, 1365, 1366, 2730, 4999}) {
        std::vector<float> expected = row_values(r, floats);
        EXPECT_EQ(std::vector<float>(rows.row(r), rows.row(r) + floats), expected) << "row " << r;
    }
}

TEST(RowBlocksTest, TruncateKeepsTheFirstRowsAndLaterRowsFollowThem) {
    const size_t floats = 100;
    RowBlocks rows(floats);
    for (size_t r = 0; r < 12000; ++r) rows.push_back(row_values(r, floats).data());
    rows.truncate(5243);
    EXPECT_EQ(rows.size(), 5243u);
    EXPECT_EQ(rows.row(5242)[7], row_values(5242, floats)[7]);
    rows.truncate(9000);  // never grows
    EXPECT_EQ(rows.size(), 5243u);
    for (size_t r = 5243; r < 7000; ++r) rows.push_back(row_values(r + 100000, floats).data());
    EXPECT_EQ(rows.size(), 7000u);
    EXPECT_EQ(rows.row(5243)[3], row_values(105243, floats)[3]);
    EXPECT_EQ(rows.row(5242)[3], row_values(5242, floats)[3]);
    rows.truncate(0);
    EXPECT_EQ(rows.size(), 0u);
    rows.push_back(row_values(1, floats).data());
    EXPECT_EQ(rows.row(0)[99], row_values(1, floats)[99]);
}

TEST(RowBlocksTest, RunsCoverEveryRowInOrder) {
    const size_t floats = 3000;  // 174 rows a block
    RowBlocks rows(floats);
    for (size_t r = 0; r < 400; ++r) rows.push_back(row_values(r, floats).data());
    size_t seen = 0;
    rows.for_each_run([&](const float* first, size_t count) {
        for (size_t i = 0; i < count; ++i) {
            EXPECT_EQ(first[i * floats], row_values(seen + i, floats)[0]);
        }
        seen += count;
    });
    EXPECT_EQ(seen, 400u);
}

}  // namespace
}  // namespace mnemo::memory
