// Transfer strip rows: the newest copies, formatted once per picture.
#include "gui/view_state/transfer_strip_model.h"

#include <algorithm>
#include <cstdio>

#include "core/format.h"
#include "gui/view_state/palette.h"
#include "gui/view_state/size_text.h"

namespace ds::gui {
namespace {

std::string duration_text(double ns) { return format_duration(ns, /*compact=*/true); }
std::string rate_text(double gbps) { return format_rate(gbps); }

}  // namespace

TransferStripModel make_transfer_strip(const Snapshot& snap, size_t max_rows) {
  TransferStripModel m;
  m.total = snap.transfers.size();
  m.simulated = snap.simulated;
  for (const TransferRecord& t : snap.transfers) m.total_bytes += t.bytes;
  const size_t shown = std::min(max_rows, snap.transfers.size());
  m.earlier = snap.transfers.size() - shown;
  for (size_t k = 0; k < shown; ++k) {
    const TransferRecord& t = snap.transfers[snap.transfers.size() - 1 - k];
    TransferStripRow r;
    r.id = t.id;
    r.route = t.src.str() + " \xe2\x86\x92 " + t.dst.str();
    r.size = size_text(t.bytes);
    r.in_flight = !t.complete;
    r.duration_ns = t.duration_ns();
    r.time = r.in_flight ? "in flight" : duration_text(r.duration_ns);
    if (!r.in_flight && r.duration_ns > 0) r.rate = rate_text(t.gbps());
    // Short tags: the strip's rows are one line at projector size.
    const bool host_only = t.src.is_host() && t.dst.is_host();
    if (t.route == Route::StagedPinned) r.tags.push_back("staged");
    if (t.route == Route::Peer) r.tags.push_back("peer");
    if (t.non_blocking) r.tags.push_back(t.async ? "async" : "non_blocking, waited");
    if (r.in_flight) r.tags.push_back("not synchronised");
    if (host_only && snap.simulated) r.tags.push_back("measured");
    r.owner = t.owner;
    r.color = transfer_color(t.src, t.dst);
    r.host_only = host_only;
    m.rows.push_back(std::move(r));
  }
  // Bars on one scale per clock: on simulated devices a host-to-host copy (pin_memory) is measured wall
  // time and device copies are modelled, so neither stretches the other's bars.
  double longest[2] = {0, 0};
  for (const TransferStripRow& r : m.rows) longest[r.host_only] = std::max(longest[r.host_only], r.duration_ns);
  for (TransferStripRow& r : m.rows) {
    const double l = m.simulated ? longest[r.host_only] : std::max(longest[0], longest[1]);
    r.bar = l > 0 ? r.duration_ns / l : 0;
  }
  return m;
}

}  // namespace ds::gui
