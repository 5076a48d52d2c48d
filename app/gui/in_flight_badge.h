// The "in flight" badge (issue 17 item 3): a host tensor an async copy has not written yet holds stale
// bytes until a sync point folds the copy (StorageInfo::in_flight). Memory draws it on the block, Names on
// the storage box, so lesson 016's `h` looks different before and after torch.cuda.synchronize().
#pragma once

#include <cstdint>

#include <imgui.h>

#include "trace/snapshot.h"

namespace ds::gui {

inline constexpr const char* kInFlightText = "IN FLIGHT";
inline constexpr const char* kInFlightExplained =
    "An async copy into these bytes has not been synchronised: reading them now may see what was there "
    "before the copy (stale). torch.cuda.synchronize() or an event's synchronize() makes them safe.";

// True when `storage_id` is the destination of a copy still in flight in `snap`.
bool storage_in_flight(const Snapshot& snap, uint64_t storage_id);

// The badge's width at this font size.
float in_flight_badge_width(ImFont* font, float font_size);
// A warning-coloured pill whose right edge is at `right` and top at `top`, `height` tall; returns its width.
float draw_in_flight_badge(ImDrawList* dl, ImFont* font, float font_size, float right, float top, float height);

}  // namespace ds::gui
