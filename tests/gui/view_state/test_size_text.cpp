// Sizes on screen as people write them (issue 24 item 8: "1024.00 KiB", "1 bytes").
#include <gtest/gtest.h>

#include "gui/view_state/size_text.h"

namespace ds::gui {
namespace {

TEST(SizeText, AsPeopleWriteThem) {
  EXPECT_EQ(size_text(uint64_t(0)), "0 bytes");
  EXPECT_EQ(size_text(uint64_t(1)), "1 byte");
  EXPECT_EQ(size_text(uint64_t(40)), "40 bytes");
  EXPECT_EQ(size_text(uint64_t(1023)), "1023 bytes");
  EXPECT_EQ(size_text(uint64_t(1024)), "1 KiB");
  EXPECT_EQ(size_text(uint64_t(1536)), "1.5 KiB");
  EXPECT_EQ(size_text(uint64_t(185937)), "182 KiB");  // 181.58 KiB: three significant digits
  EXPECT_EQ(size_text(uint64_t(1048576)), "1 MiB");  // not "1024.00 KiB"
  EXPECT_EQ(size_text(uint64_t(1048575)), "1 MiB");  // rounding up to 1024 KiB moves to the next unit
  EXPECT_EQ(size_text(uint64_t(20) << 20), "20 MiB");
  EXPECT_EQ(size_text(uint64_t(3355443)), "3.2 MiB");
  EXPECT_EQ(size_text(uint64_t(128) << 30), "128 GiB");
  EXPECT_EQ(size_text(0.25), "0.25 bytes");
  EXPECT_EQ(size_text(137.0), "137 bytes");
}

}  // namespace
}  // namespace ds::gui
