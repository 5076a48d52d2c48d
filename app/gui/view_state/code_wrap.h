// Soft wrapping of code lines for a monospaced listing (the lesson's code box, the presenter's editor): a
// line wider than the box continues on the next row under its own indentation, plus two.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace ds::gui {

struct CodePiece {
  size_t begin, end;  // bytes of the line
  size_t indent;      // spaces before it (0 for the first piece)
};

// Splits a line into pieces of at most `cols` characters, breaking after a space in the second half of a
// piece when there is one, and only between UTF-8 characters.
std::vector<CodePiece> wrap_code_line(const std::string& line, size_t cols);
// Where a Python comment starts: a `#` outside quotes (npos when none).
size_t comment_start(const std::string& line);

}  // namespace ds::gui
