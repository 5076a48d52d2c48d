// Labels cut to a width (issue 24): only between UTF-8 characters (a cut inside "→" or "…" drew "???" in the
// presenter's transfers strip), and owner names that keep what tells blocks apart.
#include <gtest/gtest.h>

#include "gui/view_state/text_fit.h"

namespace ds::gui {
namespace {

// 7 px per character, whatever its byte length (as a font draws it).
float chars_7px(std::string_view s) {
  float n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n * 7;
}

bool valid_utf8(const std::string& s) {
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    const size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (len == 0 || i + len > s.size()) return false;
    for (size_t k = 1; k < len; ++k)
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
    i += len;
  }
  return true;
}

TEST(TextFit, CutsOnlyBetweenCharacters) {
  // The presenter strip's tag: arrows, a middle dot, an ellipsis, all multi-byte.
  const std::string tag = "pageable \xe2\x86\x92 pinned \xc2\xb7 non_blocking, waited \xe2\x80\xa6";
  for (float room = 0; room <= chars_7px(tag) + 7; room += 1) {
    const std::string out = fit_utf8(tag, room, chars_7px);
    EXPECT_TRUE(valid_utf8(out)) << "room " << room << ": " << out;
    EXPECT_LE(chars_7px(out), room) << out;
  }
  // Room for "pageable →…" exactly: the arrow is kept whole, not cut to "pageable \xe2\x86".
  EXPECT_EQ(fit_utf8(tag, 11 * 7, chars_7px), "pageable \xe2\x86\x92\xe2\x80\xa6");
  EXPECT_EQ(fit_utf8(tag, 10 * 7, chars_7px), "pageable\xe2\x80\xa6");  // the space before the cut is trimmed
  EXPECT_EQ(fit_utf8("\xc3\xa9t\xc3\xa9", 21, chars_7px), "\xc3\xa9t\xc3\xa9");  // fits whole
  EXPECT_EQ(fit_utf8("\xc3\xa9t\xc3\xa9s", 21, chars_7px), "\xc3\xa9t\xe2\x80\xa6");
  EXPECT_EQ(fit_utf8("abc", 6, chars_7px), "");  // not even "a…"
}

TEST(TextFit, BoundaryNeverInsideACharacter) {
  const std::string s = "a\xe2\x86\x92" "b";
  EXPECT_EQ(utf8_boundary_at_or_before(s, 0), 0u);
  EXPECT_EQ(utf8_boundary_at_or_before(s, 1), 1u);
  EXPECT_EQ(utf8_boundary_at_or_before(s, 2), 1u);
  EXPECT_EQ(utf8_boundary_at_or_before(s, 3), 1u);
  EXPECT_EQ(utf8_boundary_at_or_before(s, 4), 4u);
  EXPECT_EQ(utf8_boundary_at_or_before(s, 99), s.size());
}

TEST(TextFit, OwnerLeafKeepsWhatTellsBlocksApart) {
  EXPECT_EQ(owner_leaf("model.0.weight"), "0.weight");
  EXPECT_EQ(owner_leaf("model.2.weight"), "2.weight");
  EXPECT_EQ(owner_leaf("model.0.weight.grad"), "0.weight.grad");
  EXPECT_EQ(owner_leaf("Adam.state[2].exp_avg_sq"), "exp_avg_sq[2]");
  EXPECT_EQ(owner_leaf("opt.state[model.0.weight].exp_avg"), "exp_avg[model.0.weight]");
  EXPECT_EQ(owner_leaf("x_cpu"), "x_cpu");
  EXPECT_EQ(owner_leaf("model.mask"), "mask");  // a name of its own needs no module
  EXPECT_EQ(owner_leaf("model.scale.grad"), "scale.grad");
  EXPECT_EQ(owner_leaf("model.layers.3.norm.running_mean"), "norm.running_mean");
  EXPECT_EQ(owner_parts("opt.state[model.0.weight].exp_avg"),
            (std::vector<std::string>{"opt", "state[model.0.weight]", "exp_avg"}));
}

TEST(TextFit, OwnerNamesDropLeadingPartsBeforeCutting) {
  const std::string name = "model.layers.0.attn.q_proj.weight";
  EXPECT_EQ(fit_owner_name(name, 1000, chars_7px), name);
  EXPECT_EQ(fit_owner_name(name, chars_7px("attn.q_proj.weight"), chars_7px), "attn.q_proj.weight");
  EXPECT_EQ(fit_owner_name(name, chars_7px("q_proj.weight") + 3, chars_7px), "q_proj.weight");
  EXPECT_EQ(fit_owner_name("model.mask", chars_7px("model.ma") + 7, chars_7px), "mask");
  // Below the leaf: its middle is cut, its distinguishing start and end kept.
  EXPECT_EQ(fit_owner_name(name, 9 * 7, chars_7px), "q_pr\xe2\x80\xa6ight");
  // Three weights of a Sequential in the room for 9 characters: three different labels.
  const float room = 9 * 7;
  const std::string a = fit_owner_name("model.0.weight.grad", room, chars_7px);
  const std::string b = fit_owner_name("model.2.weight.grad", room, chars_7px);
  const std::string c = fit_owner_name("model.4.weight.grad", room, chars_7px);
  EXPECT_NE(a, b);
  EXPECT_NE(b, c);
  EXPECT_EQ(a, "0.we\xe2\x80\xa6grad");
  // Adam's two states of one parameter stay apart when cut: the index and the key's end are kept.
  const std::string m = fit_owner_name("Adam.state[2].exp_avg", room, chars_7px);
  const std::string v = fit_owner_name("Adam.state[2].exp_avg_sq", room, chars_7px);
  EXPECT_NE(m, v);
  EXPECT_EQ(v, "exp_\xe2\x80\xa6q[2]");
  EXPECT_EQ(fit_owner_name("Adam.state[2].exp_avg_sq", chars_7px("exp_avg_sq[2]"), chars_7px), "exp_avg_sq[2]");
  // The state's leaf is always spelled key[index], its key first (what differs between neighbours).
  EXPECT_EQ(fit_owner_name("Adam.state[2].exp_avg_sq", chars_7px("state[2].exp_avg_sq"), chars_7px), "exp_avg_sq[2]");
  // A snapshot's owner is a source line: the folders go, the file, line and function stay.
  EXPECT_EQ(fit_owner_name("/home/u/train.py:50 optimizer_step", chars_7px("train.py:50 optimizer_step"), chars_7px),
            "train.py:50 optimizer_step");
  for (float r = 0; r < 120; r += 3) EXPECT_TRUE(valid_utf8(fit_owner_name("model.0.w\xc3\xa9ight.grad", r, chars_7px)));
}

}  // namespace
}  // namespace ds::gui
