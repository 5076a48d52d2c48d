// Top-level statement splitting for Step / Step back and the editor's statement marker.
#include "gui/view_state/script_statements.h"

#include <cctype>

namespace ds::gui {
namespace {

bool blank_or_comment(const std::string& line) {
  for (char c : line) {
    if (c == '#') return true;
    if (!std::isspace(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

bool starts_with_word(const std::string& line, const char* word) {
  const std::string w(word);
  if (line.compare(0, w.size(), w) != 0) return false;
  return line.size() == w.size() || !(std::isalnum(static_cast<unsigned char>(line[w.size()])) || line[w.size()] == '_');
}

// Clauses that continue the compound statement above them instead of starting a new one.
bool continues_compound(const std::string& line) {
  return starts_with_word(line, "else") || starts_with_word(line, "elif") || starts_with_word(line, "except") ||
         starts_with_word(line, "finally") || starts_with_word(line, "case");
}

// Scans one line, updating bracket depth and open-string state. Returns true when the line ends with
// a backslash continuation outside any string.
struct Scanner {
  int depth = 0;
  char quote = 0;       // open string quote char, 0 when none
  bool triple = false;  // the open string is triple-quoted

  bool scan(const std::string& line) {
    for (size_t i = 0; i < line.size(); ++i) {
      const char c = line[i];
      if (quote) {
        if (c == '\\') {
          ++i;
        } else if (c == quote) {
          if (!triple) {
            quote = 0;
          } else if (i + 2 < line.size() + 0 && line.compare(i, 3, std::string(3, quote)) == 0) {
            quote = 0;
            triple = false;
            i += 2;
          }
        }
        continue;
      }
      if (c == '#') return false;
      if (c == '\'' || c == '"') {
        if (line.compare(i, 3, std::string(3, c)) == 0) {
          triple = true;
          i += 2;
        }
        quote = c;
      } else if (c == '(' || c == '[' || c == '{') {
        ++depth;
      } else if ((c == ')' || c == ']' || c == '}') && depth > 0) {
        --depth;
      }
    }
    if (quote && !triple) quote = 0;  // an unterminated one-line string ends with the line
    return !quote && !line.empty() && line.back() == '\\';
  }
  bool open() const { return depth > 0 || quote != 0; }
};

}  // namespace

std::vector<std::string> split_lines(const std::string& code) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < code.size()) {
    size_t end = code.find('\n', start);
    if (end == std::string::npos) end = code.size();
    std::string line = code.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(std::move(line));
    start = end + 1;
  }
  return lines;
}

std::vector<Statement> split_statements(const std::string& code) {
  const std::vector<std::string> lines = split_lines(code);
  std::vector<Statement> out;
  Scanner sc;
  bool continued = false;      // previous line ended inside brackets/strings or with a backslash
  bool pending_decorator = false;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    const int lineno = int(i) + 1;
    const bool inside = continued || sc.open();
    const bool indented = !line.empty() && (line[0] == ' ' || line[0] == '\t');
    if (!inside && blank_or_comment(line)) {
      continued = false;
      continue;
    }
    const bool joins = inside || indented || continues_compound(line) || pending_decorator;
    if (!joins || out.empty()) out.push_back({lineno, lineno, line});
    else {
      Statement& s = out.back();
      // Keep blank/comment lines between the parts of a block, but only once more text follows.
      for (int l = s.last_line + 1; l < lineno; ++l) s.text += "\n" + lines[size_t(l - 1)];
      s.text += "\n" + line;
      s.last_line = lineno;
    }
    if (!inside) pending_decorator = !line.empty() && line[0] == '@';
    continued = sc.scan(line);
  }
  return out;
}

}  // namespace ds::gui
