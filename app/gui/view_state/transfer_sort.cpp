// Stable sorts of transfer indices by one column (ties keep id order).
#include "gui/view_state/transfer_sort.h"

#include <algorithm>
#include <numeric>

#include "gui/view_state/timeline_model.h"

namespace ds::gui {

std::vector<uint32_t> sort_transfers(const std::vector<TransferRecord>& t, TransferColumn column, bool ascending) {
  std::vector<uint32_t> order(t.size());
  std::iota(order.begin(), order.end(), 0u);
  auto by = [&](auto key) {
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      return ascending ? key(t[a]) < key(t[b]) : key(t[b]) < key(t[a]);
    });
  };
  auto place_key = [](const Place& p) { return int(p.kind) * 1000 + p.device; };
  switch (column) {
    case TransferColumn::Id: by([](const TransferRecord& r) { return r.id; }); break;
    case TransferColumn::Start: by([](const TransferRecord& r) { return r.start_ns; }); break;
    case TransferColumn::Route: by([](const TransferRecord& r) { return int(transfer_direction(r)) * 10 + int(r.route); }); break;
    case TransferColumn::Src: by([&](const TransferRecord& r) { return place_key(r.src); }); break;
    case TransferColumn::Dst: by([&](const TransferRecord& r) { return place_key(r.dst); }); break;
    case TransferColumn::Bytes: by([](const TransferRecord& r) { return r.bytes; }); break;
    case TransferColumn::Duration: by([](const TransferRecord& r) { return r.duration_ns(); }); break;
    case TransferColumn::Bandwidth: by([](const TransferRecord& r) { return r.gbps(); }); break;
    case TransferColumn::Owner: by([](const TransferRecord& r) { return std::string_view(r.owner); }); break;
    case TransferColumn::Count: break;
  }
  return order;
}

}  // namespace ds::gui
