// Shortening text to a width without ImGui (the width comes from a function), so tests can check it:
// cuts fall only between UTF-8 characters (issue 24 item 1: a cut inside "→" drew "???"), and owner
// names keep the part that tells blocks apart (issue 24 item 3: "…weight" three times).
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace ds::gui {

using TextWidth = std::function<float(std::string_view)>;

// The largest character boundary <= pos (a byte that is not a UTF-8 continuation byte, or the end).
size_t utf8_boundary_at_or_before(std::string_view s, size_t pos);

// `text` whole when it fits `room`, else its longest prefix of whole characters followed by "…"
// (empty when not even one character and the ellipsis fit).
std::string fit_utf8(std::string_view text, float room, const TextWidth& width);

// `text` whole, else its start and end around "…" (whole characters, about 40% of them from the start);
// with room for fewer than two characters, fit_utf8.
std::string fit_middle(std::string_view text, float room, const TextWidth& width);

// The dotted parts of an owner path, brackets kept whole: "opt.state[model.0.weight].exp_avg" ->
// {"opt", "state[model.0.weight]", "exp_avg"}.
std::vector<std::string> owner_parts(std::string_view name);

// The shortest form of an owner name that still tells it from its siblings: a generic leaf with its module
// ("model.layers.0.weight" -> "0.weight", "model.0.weight.grad" -> "0.weight.grad"), a name of its own
// alone ("model.mask" -> "mask"), an optimizer's state as key[index] ("Adam.state[2].exp_avg_sq" ->
// "exp_avg_sq[2]").
std::string owner_leaf(std::string_view name);

// An owner name in `room`: whole; else with leading parts dropped one at a time down to owner_leaf();
// else owner_leaf() cut in its middle (fit_middle: "0.w…ht.grad", "ex…_sq[2]": the module index at the
// start and the key or role at the end both tell blocks apart). The full name goes in a tooltip.
std::string fit_owner_name(std::string_view name, float room, const TextWidth& width);

}  // namespace ds::gui
