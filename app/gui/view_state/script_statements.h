// Splits Python source into top-level statements (what Step runs one at a time) by line numbers.
// Knows brackets, strings (also triple-quoted), backslash continuations, indented blocks and decorators.
#pragma once

#include <string>
#include <vector>

namespace ds::gui {

struct Statement {
  int first_line = 0;  // 1-based
  int last_line = 0;   // inclusive; trailing blank/comment lines are not part of it
  std::string text;    // the statement's lines joined with '\n'
};

std::vector<Statement> split_statements(const std::string& code);

// Lines of `code` (without their '\n'); a trailing newline does not make an extra empty line.
std::vector<std::string> split_lines(const std::string& code);

}  // namespace ds::gui
