// wrap_code_line: rows of at most `cols` characters, broken at a space when one is in the row's second half.
#include "gui/view_state/code_wrap.h"

#include <algorithm>

namespace ds::gui {

std::vector<CodePiece> wrap_code_line(const std::string& l, size_t cols) {
  std::vector<CodePiece> out;
  const size_t lead = std::min(l.find_first_not_of(' ') == std::string::npos ? 0 : l.find_first_not_of(' '), cols / 2);
  size_t pos = 0, indent = 0;
  while (true) {
    const size_t room = cols > indent + 8 ? cols - indent : 8;
    if (l.size() - pos <= room) {
      out.push_back({pos, l.size(), indent});
      break;
    }
    size_t cut = pos + room;
    const size_t space = l.rfind(' ', cut - 1);
    if (space != std::string::npos && space > pos + room / 2) cut = space + 1;
    while (cut > pos + 1 && cut < l.size() && (static_cast<unsigned char>(l[cut]) & 0xC0) == 0x80) --cut;  // whole UTF-8 characters
    out.push_back({pos, cut, indent});
    pos = cut;
    while (pos < l.size() && l[pos] == ' ') ++pos;
    indent = lead + 2;
    if (pos >= l.size()) break;
  }
  return out;
}

// Where a Python comment starts: a `#` outside quotes (npos when none).
size_t comment_start(const std::string& l) {
  char quote = 0;
  for (size_t k = 0; k < l.size(); ++k) {
    if (quote) {
      if (l[k] == '\\') ++k;
      else if (l[k] == quote) quote = 0;
    } else if (l[k] == '"' || l[k] == '\'') {
      quote = l[k];
    } else if (l[k] == '#') {
      return k;
    }
  }
  return std::string::npos;
}

}  // namespace ds::gui
