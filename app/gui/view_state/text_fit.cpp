// Text shortening for labels: whole characters only, owner names that keep their distinguishing end.
#include "gui/view_state/text_fit.h"

#include <algorithm>

namespace ds::gui {
namespace {

constexpr const char* kEllipsis = "\xe2\x80\xa6";

bool continuation(unsigned char c) { return (c & 0xC0) == 0x80; }

std::string join(const std::vector<std::string>& parts, size_t from) {
  std::string out;
  for (size_t i = from; i < parts.size(); ++i) out += (i > from ? "." : "") + parts[i];
  return out;
}

// Tensor names every module repeats: alone they do not tell blocks apart, so the leaf keeps its module.
bool generic_leaf(const std::string& part) {
  static const char* const kGeneric[] = {"weight", "bias", "running_mean", "running_var", "num_batches_tracked",
                                         "in_proj_weight", "in_proj_bias", "weight_orig", "weight_g", "weight_v"};
  for (const char* g : kGeneric)
    if (part == g) return true;
  return false;
}

// How many trailing parts the leaf keeps: a name of its own alone ("model.mask" -> "mask"), a generic
// one with its module ("0.weight"), a gradient with what it is the gradient of ("0.weight.grad").
size_t leaf_parts(const std::vector<std::string>& parts, size_t n) {
  if (n <= 1) return n;
  if (parts[n - 1] == "grad") return std::min(n, 1 + leaf_parts(parts, n - 1));
  if (parts[n - 2].rfind("state[", 0) == 0) return 2;  // an optimizer's state: the key and its index
  return generic_leaf(parts[n - 1]) ? 2 : 1;
}
size_t leaf_parts(const std::vector<std::string>& parts) { return leaf_parts(parts, parts.size()); }

}  // namespace

size_t utf8_boundary_at_or_before(std::string_view s, size_t pos) {
  if (pos >= s.size()) return s.size();
  while (pos > 0 && continuation(static_cast<unsigned char>(s[pos]))) --pos;
  return pos;
}

std::string fit_utf8(std::string_view text, float room, const TextWidth& width) {
  if (width(text) <= room) return std::string(text);
  // Binary search over the character boundaries for the longest prefix that fits with the ellipsis.
  std::vector<size_t> cuts;  // byte offsets where a character starts, after the first character
  for (size_t i = 1; i < text.size(); ++i)
    if (!continuation(static_cast<unsigned char>(text[i]))) cuts.push_back(i);
  size_t lo = 0, hi = cuts.size();  // answer: cuts[k - 1] for the largest fitting k (0: nothing fits)
  while (lo < hi) {
    const size_t mid = (lo + hi + 1) / 2;
    if (width(std::string(text.substr(0, cuts[mid - 1])) + kEllipsis) <= room) lo = mid;
    else hi = mid - 1;
  }
  lo = lo == 0 ? 0 : cuts[lo - 1];
  // A cut after a space or a dot reads as a finished word: trim the space.
  while (lo > 0 && text[lo - 1] == ' ') --lo;
  return lo == 0 ? std::string() : std::string(text.substr(0, lo)) + kEllipsis;
}

std::vector<std::string> owner_parts(std::string_view name) {
  std::vector<std::string> parts;
  std::string cur;
  int depth = 0;
  for (char c : name) {
    if (c == '[') ++depth;
    if (c == ']' && depth > 0) --depth;
    if (c == '.' && depth == 0) {
      parts.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  parts.push_back(cur);
  return parts;
}

std::string owner_leaf(std::string_view name) {
  const std::vector<std::string> parts = owner_parts(name);
  const size_t n = parts.size();
  // "Adam.state[2].exp_avg_sq" -> "exp_avg_sq[2]": the key first, it is what differs between neighbours.
  if (n >= 2 && parts[n - 2].rfind("state[", 0) == 0 && parts[n - 2].back() == ']')
    return parts[n - 1] + parts[n - 2].substr(5);
  return join(parts, n - leaf_parts(parts));
}

std::string fit_owner_name(std::string_view name, float room, const TextWidth& width) {
  if (width(name) <= room) return std::string(name);
  // A source line ("/home/u/train.py:50 optimizer_step", a snapshot's owner): the file's folders go first.
  const size_t slash = name.rfind('/', name.find(':') == std::string_view::npos ? std::string_view::npos : name.find(':'));
  if (slash != std::string_view::npos) return fit_middle(name.substr(slash + 1), room, width);
  const std::vector<std::string> parts = owner_parts(name);
  const size_t keep = leaf_parts(parts);
  for (size_t from = 1; from + keep <= parts.size(); ++from) {
    const std::string tail = join(parts, from);
    if (from + keep == parts.size()) break;  // the leaf itself: owner_leaf's spelling below
    if (width(tail) <= room) return tail;
  }
  return fit_middle(owner_leaf(name), room, width);
}

std::string fit_middle(std::string_view text, float room, const TextWidth& width) {
  if (width(text) <= room) return std::string(text);
  std::vector<size_t> starts;  // byte offset of each character
  for (size_t i = 0; i < text.size(); ++i)
    if (!continuation(static_cast<unsigned char>(text[i]))) starts.push_back(i);
  const size_t n = starts.size();
  auto candidate = [&](size_t k) {  // k characters kept: about 40% from the start, the rest from the end
    const size_t head = (k * 2 + 4) / 5, tail = k - head;
    return std::string(text.substr(0, head < n ? starts[head] : text.size())) + kEllipsis +
           std::string(text.substr(tail ? starts[n - tail] : text.size()));
  };
  size_t lo = 0, hi = n > 0 ? n - 1 : 0;
  while (lo < hi) {
    const size_t mid = (lo + hi + 1) / 2;
    if (width(candidate(mid)) <= room) lo = mid;
    else hi = mid - 1;
  }
  return lo < 2 ? fit_utf8(text, room, width) : candidate(lo);
}

}  // namespace ds::gui
