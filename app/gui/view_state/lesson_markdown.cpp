// Markdown subset parser for lesson narration: block structure first, then inline spans.
#include "gui/view_state/lesson_markdown.h"

#include <cctype>
#include <sstream>

namespace ds::gui {
namespace {

std::string trim(const std::string& s) {
  const size_t a = s.find_first_not_of(" \t");
  if (a == std::string::npos) return "";
  return s.substr(a, s.find_last_not_of(" \t") - a + 1);
}

void add_span(std::vector<MdSpan>& out, std::string text, bool bold, bool code, bool italic) {
  if (text.empty()) return;
  if (!out.empty() && out.back().bold == bold && out.back().code == code && out.back().italic == italic) {
    out.back().text += text;
    return;
  }
  out.push_back({std::move(text), bold, code, italic});
}

}  // namespace

std::vector<MdSpan> parse_inline(const std::string& s) {
  std::vector<MdSpan> out;
  std::string cur;
  bool bold = false, italic = false;
  size_t i = 0;
  while (i < s.size()) {
    if (s[i] == '`') {
      // A code span runs to the next run of as many backticks; unclosed: a literal backtick.
      size_t ticks = 0;
      while (i + ticks < s.size() && s[i + ticks] == '`') ++ticks;
      const size_t end = s.find(std::string(ticks, '`'), i + ticks);
      if (end == std::string::npos) {
        cur += s.substr(i, ticks);
        i += ticks;
        continue;
      }
      add_span(out, cur, bold, false, italic);
      cur.clear();
      std::string code = s.substr(i + ticks, end - i - ticks);
      if (code.size() > 2 && code.front() == ' ' && code.back() == ' ') code = code.substr(1, code.size() - 2);
      add_span(out, code, bold, true, italic);
      i = end + ticks;
      continue;
    }
    if (s.compare(i, 2, "**") == 0 && (bold || s.find("**", i + 2) != std::string::npos)) {
      add_span(out, cur, bold, false, italic);
      cur.clear();
      bold = !bold;
      i += 2;
      continue;
    }
    // Single * or _ as emphasis only at word edges (snake_case names and 2*3 stay literal).
    if ((s[i] == '*' || s[i] == '_')) {
      const bool opens = !italic && (i == 0 || s[i - 1] == ' ' || s[i - 1] == '(') && i + 1 < s.size() && s[i + 1] != ' ' &&
                         s.find(s[i], i + 1) != std::string::npos;
      const bool closes = italic && i > 0 && s[i - 1] != ' ' && (i + 1 == s.size() || !std::isalnum((unsigned char)s[i + 1]));
      if (opens || closes) {
        add_span(out, cur, bold, false, italic);
        cur.clear();
        italic = !italic;
        ++i;
        continue;
      }
    }
    cur += s[i++];
  }
  add_span(out, cur, bold, false, italic);
  return out;
}

std::vector<MdBlock> parse_markdown(const std::string& text) {
  std::vector<MdBlock> out;
  std::istringstream in(text);
  std::string line;
  std::string para;       // the paragraph (or bullet item) being collected
  MdBlock pending;        // its kind/level
  bool have = false;
  auto flush = [&] {
    if (have && !trim(para).empty()) {
      pending.spans = parse_inline(trim(para));
      out.push_back(pending);
    }
    para.clear();
    have = false;
  };
  bool in_code = false;
  std::string code;
  while (std::getline(in, line)) {
    const std::string t = trim(line);
    if (t.rfind("```", 0) == 0) {
      if (in_code) {
        MdBlock b;
        b.kind = MdBlock::Kind::Code;
        if (!code.empty() && code.back() == '\n') code.pop_back();
        b.spans.push_back({code, false, true, false});
        out.push_back(std::move(b));
        code.clear();
      } else {
        flush();
      }
      in_code = !in_code;
      continue;
    }
    if (in_code) {
      code += line + "\n";
      continue;
    }
    if (t.empty()) {
      flush();
      continue;
    }
    if (t[0] == '#') {
      size_t level = 0;
      while (level < t.size() && t[level] == '#') ++level;
      if (level <= 6 && level < t.size() && t[level] == ' ') {
        flush();
        MdBlock b;
        b.kind = MdBlock::Kind::Heading;
        b.level = int(level);
        b.spans = parse_inline(trim(t.substr(level)));
        out.push_back(std::move(b));
        continue;
      }
    }
    const size_t indent = line.find_first_not_of(" \t");
    const bool bullet = (t.size() > 1 && (t[0] == '-' || t[0] == '*' || t[0] == '+') && t[1] == ' ');
    if (bullet) {
      flush();
      have = true;
      pending = MdBlock{};
      pending.kind = MdBlock::Kind::Bullet;
      pending.level = int(indent / 2);
      para = t.substr(2);
      continue;
    }
    if (!have) {
      have = true;
      pending = MdBlock{};
    }
    para += (para.empty() ? "" : " ") + t;  // a continuation line joins its paragraph or bullet item
  }
  if (in_code && !code.empty()) {
    MdBlock b;
    b.kind = MdBlock::Kind::Code;
    b.spans.push_back({code, false, true, false});
    out.push_back(std::move(b));
  }
  flush();
  return out;
}

}  // namespace ds::gui
