// Text forms shared by the exporters and the loader: places, routes, event kinds, copy directions.
#pragma once

#include <optional>
#include <string_view>

#include "trace/records.h"

namespace ds {

std::optional<Place> place_from_string(std::string_view text);      // "pageable", "pinned", "cuda:3"
std::optional<Route> route_from_string(std::string_view text);      // inverse of route_name()
std::optional<EventKind> event_kind_from_string(std::string_view text);  // inverse of event_kind_name()
// "H2D", "D2H", "D2D" (one device), "P2P" (two devices) or "H2H" (host to host, e.g. pin_memory).
const char* transfer_direction(const Place& src, const Place& dst);

}  // namespace ds
