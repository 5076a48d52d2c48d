// Sort orders for the transfer table (built once per snapshot and sort spec, then read by the clipper).
#pragma once

#include <cstdint>
#include <vector>

#include "trace/snapshot.h"

namespace ds::gui {

enum class TransferColumn { Id, Start, Route, Src, Dst, Bytes, Duration, Bandwidth, Owner, Count };

std::vector<uint32_t> sort_transfers(const std::vector<TransferRecord>& transfers, TransferColumn column, bool ascending);

}  // namespace ds::gui
