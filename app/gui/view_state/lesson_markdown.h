// The little Markdown the lessons use (headings, paragraphs, bullet lists, **bold**, `code`, fenced code), split
// into blocks of styled spans for the lesson view to lay out. GL-free, so it is tested without a display.
#pragma once

#include <string>
#include <vector>

namespace ds::gui {

struct MdSpan {
  std::string text;
  bool bold = false, code = false, italic = false;
};

struct MdBlock {
  enum class Kind { Paragraph, Heading, Bullet, Code };
  Kind kind = Kind::Paragraph;
  int level = 0;  // Heading: 1-6; Bullet: nesting depth (0 = top)
  std::vector<MdSpan> spans;  // Code: one span holding the whole block
};

std::vector<MdBlock> parse_markdown(const std::string& text);
// Inline markup of one line of text: **bold**, `code`, *italic* / _italic_ (unclosed markers stay literal).
std::vector<MdSpan> parse_inline(const std::string& text);

}  // namespace ds::gui
