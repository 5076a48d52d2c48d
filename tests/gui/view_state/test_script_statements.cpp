// Statement splitting for Step / Step back: what counts as one top-level statement.
#include <gtest/gtest.h>

#include "gui/view_state/script_statements.h"

namespace ds::gui {
namespace {

TEST(ScriptStatements, OneLineEachSkippingBlanksAndComments) {
  auto s = split_statements("import torch\n\n# comment\nx = 1\ny = 2\n");
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[0].first_line, 1);
  EXPECT_EQ(s[1].first_line, 4);
  EXPECT_EQ(s[2].first_line, 5);
  EXPECT_EQ(s[2].text, "y = 2");
}

TEST(ScriptStatements, BracketsStringsAndBlocksJoinLines) {
  auto s = split_statements(
      "m = nn.Sequential(\n    nn.Linear(1, 2),\n)\ns = '''a\nb'''\nwhile True:\n    pass\n\n    x = 1\nelse:\n  y\nz = 3 \\\n  + 4\n@d\ndef f():\n  return 1\n");
  ASSERT_EQ(s.size(), 5u);
  EXPECT_EQ(s[0].first_line, 1);
  EXPECT_EQ(s[0].last_line, 3);
  EXPECT_EQ(s[1].first_line, 4);
  EXPECT_EQ(s[1].last_line, 5);
  EXPECT_EQ(s[2].first_line, 6);
  EXPECT_EQ(s[2].last_line, 11);
  EXPECT_EQ(s[3].first_line, 12);
  EXPECT_EQ(s[3].last_line, 13);
  EXPECT_EQ(s[4].first_line, 14);
  EXPECT_EQ(s[4].last_line, 16);
}

TEST(ScriptStatements, SplitLinesHasNoPhantomLastLine) {
  EXPECT_EQ(split_lines("a\nb\n").size(), 2u);
  EXPECT_EQ(split_lines("a\nb").size(), 2u);
  EXPECT_EQ(split_lines("").size(), 0u);
}

}  // namespace
}  // namespace ds::gui
