// Memory map layout: spans (segments, blocks, loose storages) -> wrapped rows -> quads and labels.
#include "gui/view_state/memory_layout.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/format.h"
#include "gui/view_state/palette.h"
#include "gui/view_state/size_text.h"

namespace ds::gui {

std::string free_block_label(uint64_t bytes) { return "free " + size_text(bytes); }

void StorageIndex::build(const Snapshot& snap) {
  snap_ = &snap;
  sorted_ = std::is_sorted(snap.storages.begin(), snap.storages.end(),
                           [](const StorageInfo& a, const StorageInfo& b) { return a.id < b.id; });
  order_.clear();
  if (!sorted_) {
    order_.resize(snap.storages.size());
    std::iota(order_.begin(), order_.end(), 0u);
    std::sort(order_.begin(), order_.end(), [&](uint32_t a, uint32_t b) { return snap.storages[a].id < snap.storages[b].id; });
  }
}

const StorageInfo* StorageIndex::find(uint64_t id) const {
  if (!snap_ || id == 0) return nullptr;
  const auto& v = snap_->storages;
  if (sorted_) {
    auto it = std::lower_bound(v.begin(), v.end(), id, [](const StorageInfo& s, uint64_t i) { return s.id < i; });
    return it != v.end() && it->id == id ? &*it : nullptr;
  }
  auto it = std::lower_bound(order_.begin(), order_.end(), id, [&](uint32_t k, uint64_t i) { return v[k].id < i; });
  return it != order_.end() && v[*it].id == id ? &v[*it] : nullptr;
}

std::string display_name(const StorageInfo& s) {
  if (!s.owner.empty()) return s.owner;
  if (!s.holders.empty()) return s.holders.front();
  return "#" + std::to_string(s.id);
}

namespace {

struct Span {
  uint64_t bytes = 0;
  uint64_t storage_id = 0;
  int32_t segment = -1;
  Role role = Role::Tensor;
  bool free = false;
  bool known = true;       // allocated block whose storage is in the snapshot
  bool segment_end = false;
};

bool segment_in_place(const SegmentInfo& seg, Place p) {
  if (p.kind == MemoryKind::Pinned) return seg.device < 0;
  if (p.kind == MemoryKind::Device) return seg.device == p.device;
  return false;
}

class RowWriter {
 public:
  RowWriter(MemoryPaneLayout& l) : l_(l) {}
  // Emits the row pieces of [a, a+len) at vertical inset `inset`.
  void emit(double a, double len, float inset, uint32_t color, uint32_t flags) {
    const double w = l_.width;
    const double limit = double(l_.rows) * w;
    double end = std::min(a + len, limit);
    bool first = true;
    while (a < end - 1e-9) {
      const int row = int(a / w);
      const double x = a - double(row) * w;
      const double piece = std::min(end - a, w - x);
      Quad q;
      q.x = float(x);
      q.y = float(row) * l_.row_pitch + inset;
      q.w = float(std::max(piece, 1.0));
      q.h = l_.row_height - 2 * inset;
      q.color = color;
      // A block that wraps onto the next row reads as one block: no edges where it continues.
      const bool goes_on = a + piece < end - 1e-9;
      q.flags = flags | (first ? 0u : uint32_t(kQuadOpenLeft)) | (goes_on ? uint32_t(kQuadOpenRight) : 0u);
      l_.quads.push_back(q);
      // Continuation notches, on pieces wide enough to hold one beside their colour.
      if (q.w >= 10 && l_.wrap_marks.size() + 2 <= MemoryPaneLayout::kMaxWrapMarks) {
        if (goes_on) l_.wrap_marks.push_back({q.x + q.w, q.y, true});
        if (!first) l_.wrap_marks.push_back({q.x, q.y, false});
      }
      a += piece;
      first = false;
    }
  }

 private:
  MemoryPaneLayout& l_;
};

// Merges runs of items narrower than `fold_px` into one quad (Tracy-style), so the quad count is
// bounded by the pane's pixels however many storages there are.
class Folder {
 public:
  Folder(RowWriter& w, MemoryPaneLayout& l, float inset) : w_(w), l_(l), inset_(inset) {}
  void add(double offset, double length, uint32_t color, uint64_t bytes, uint32_t flags) {
    if (length >= kFoldPx) {
      flush();
      w_.emit(offset, length, inset_, color, flags);
      return;
    }
    if (count_ && offset - end_ > 0.75) flush();
    if (!count_) start_ = offset;
    end_ = offset + length;
    if (bytes >= max_bytes_) {
      max_bytes_ = bytes;
      color_ = color;
      flags_ = flags;
    }
    ++count_;
    if (end_ - start_ >= kRunPx) flush();
  }
  void flush() {
    if (!count_) return;
    const bool folded = count_ > 1;
    w_.emit(start_, std::max(end_ - start_, 1.0), inset_, color_, flags_ | (folded ? uint32_t(kQuadFolded) : 0u));
    l_.folded_quads += folded;
    count_ = 0;
    max_bytes_ = 0;
  }

 private:
  // Narrower than this folds (like the timeline's 3 px); a folded run is flushed once 4 px wide, so a
  // pane never holds more than about one instance per 3 pixels of its rows.
  static constexpr double kFoldPx = 3.0;
  static constexpr double kRunPx = 4.0;
  RowWriter& w_;
  MemoryPaneLayout& l_;
  float inset_;
  double start_ = 0, end_ = 0;
  uint64_t max_bytes_ = 0;
  uint32_t color_ = 0, flags_ = 0;
  size_t count_ = 0;
};

}  // namespace

MemoryPaneLayout layout_memory_pane(const Snapshot& snap, const StorageIndex& index, size_t place_index, float width,
                                    float height, const MemoryLayoutOptions& o) {
  MemoryPaneLayout l;
  l.place_index = place_index;
  if (place_index >= snap.places.size()) return l;
  const PlaceInfo& info = snap.places[place_index];
  l.place = info.place;
  l.width = std::max(width, 8.0f);
  l.height = std::max(height, o.row_height);
  l.row_height = o.row_height;
  l.row_pitch = o.row_height + o.row_gap;
  l.rows = std::max(1, int((l.height + o.row_gap) / l.row_pitch));

  // 1. Spans in address order: segments with their blocks, then storages no segment knows about.
  std::vector<Span> spans;
  std::vector<uint8_t> covered(snap.storages.size(), 0);
  const StorageInfo* base = snap.storages.empty() ? nullptr : snap.storages.data();
  if (l.place.kind != MemoryKind::Pageable) {
    std::vector<uint32_t> segs;
    for (size_t i = 0; i < snap.segments.size(); ++i)
      if (segment_in_place(snap.segments[i], l.place)) segs.push_back(uint32_t(i));
    std::sort(segs.begin(), segs.end(), [&](uint32_t a, uint32_t b) { return snap.segments[a].address < snap.segments[b].address; });
    for (uint32_t si : segs) {
      const SegmentInfo& seg = snap.segments[si];
      ++l.segments;
      for (const BlockInfo& b : seg.blocks) {
        Span s;
        s.bytes = b.size;
        s.segment = int32_t(si);
        s.free = !b.allocated;
        if (b.allocated) {
          const StorageInfo* st = index.find(b.storage_id);
          s.storage_id = b.storage_id;
          s.known = st != nullptr;
          if (st) {
            s.role = st->role;
            covered[size_t(st - base)] = 1;
          }
        }
        spans.push_back(s);
      }
      if (!spans.empty()) spans.back().segment_end = true;
    }
  }
  for (size_t i = 0; i < snap.storages.size(); ++i) {
    const StorageInfo& st = snap.storages[i];
    if (st.place != l.place || covered[i]) continue;
    Span s;
    s.bytes = std::max<uint64_t>(st.block_bytes ? st.block_bytes : st.nbytes, 1);
    s.storage_id = st.id;
    s.role = st.role;
    spans.push_back(s);
  }

  // 2. Scale: bytes -> pixels so that everything fits, with a minimum width while there is room.
  const double linear = double(l.rows) * double(l.width);
  double gap = o.segment_gap;
  if (double(l.segments) * gap > 0.15 * linear) gap = 0;
  const double gaps = double(l.segments) * gap;
  // What a span weighs on the scale: its bytes, except cached free blocks in Allocated mode, which
  // are drawn at the minimum width ("cached free memory here").
  auto weight = [&](const Span& s) { return o.scale == MemoryScale::Allocated && s.free ? 0.0 : double(s.bytes); };
  double total = 0;
  for (const Span& s : spans) total += weight(s);
  // Each span's minimum width: readable (its label fits) while there is room, else one shared shrink.
  std::vector<double> min_px(spans.size(), o.min_block_px);
  const double room = std::max(linear * 0.96 - gaps, 1.0);
  // (Names are measured only while a few thousand blocks could be readable at all: past that every block
  // shrinks far below a label anyway, and a million names would cost a million strings.)
  if (o.label_char_px > 0 && spans.size() <= 4096) {
    for (size_t i = 0; i < spans.size(); ++i) {
      const Span& s = spans[i];
      const StorageInfo* st = s.free || !s.known ? nullptr : index.find(s.storage_id);
      const size_t chars = s.free ? free_block_label(s.bytes).size()
                           : st   ? display_name(*st).size()
                                  : std::to_string(s.storage_id).size() + 1;
      min_px[i] = std::clamp(double(chars) * o.label_char_px + o.label_pad_px, double(o.readable_min_px), double(o.readable_max_px));
    }
  }
  // Too wide together: the longest labels give way first (a cap on every minimum, found by bisection), so
  // short names stay whole; only when the cap would go below the readable minimum do all shrink alike.
  double min_sum = 0, widest = 0;
  for (double m : min_px) min_sum += m;
  const double budget = room * 0.85;
  if (min_sum > budget) {
    // Cached free blocks give way first: a big one is wide by its bytes anyway, small ones between live
    // blocks need no label.
    min_sum = 0;
    for (size_t i = 0; i < spans.size(); ++i) {
      if (spans[i].free) min_px[i] = std::min(min_px[i], double(o.min_block_px));
      min_sum += min_px[i];
    }
  }
  for (double m : min_px) widest = std::max(widest, m);
  if (min_sum > budget) {
    double lo = 0, hi = widest;
    for (int it = 0; it < 40; ++it) {
      const double cap = 0.5 * (lo + hi);
      double f = 0;
      for (double m : min_px) f += std::min(m, cap);
      (f <= budget ? lo : hi) = cap;
    }
    if (lo >= std::min(double(o.readable_min_px), widest) - 1e-9) {
      for (double& m : min_px) m = std::min(m, lo);
    } else {
      for (double& m : min_px) m = std::min(m, double(o.readable_min_px));
      double s2 = 0;
      for (double m : min_px) s2 += m;
      if (s2 > budget)
        for (double& m : min_px) m *= budget / s2;
    }
  }
  double scale = 0;
  if (total > 0) {
    if (o.scale == MemoryScale::Capacity && l.place.kind == MemoryKind::Device && info.capacity > 0) {
      scale = room / std::max(double(info.capacity), total);
    } else {
      // Largest scale with sum(max(min_px, bytes * scale)) <= room (monotonic: bisection).
      double lo = 0, hi = room / total;
      for (int it = 0; it < 40; ++it) {
        const double mid = 0.5 * (lo + hi);
        double f = 0;
        for (size_t i = 0; i < spans.size(); ++i) f += std::max(min_px[i], weight(spans[i]) * mid);
        (f <= room ? lo : hi) = mid;
      }
      scale = lo;
    }
  }
  l.fit_px_per_byte = scale;
  if (o.px_per_byte > 0 && total > 0) scale = std::min(scale, o.px_per_byte);
  l.bytes_per_px = scale > 0 ? 1.0 / scale : 0;

  // 3. Items along the rows.
  l.items.reserve(spans.size());
  double cursor = 0;
  for (size_t i = 0; i < spans.size(); ++i) {
    const Span& s = spans[i];
    MemoryItem it;
    it.offset = cursor;
    it.length = std::max(min_px[i], weight(s) * scale);
    it.storage_id = s.free ? 0 : s.storage_id;
    it.bytes = s.bytes;
    it.segment = s.segment;
    it.role = s.role;
    l.items.push_back(it);
    cursor += it.length;
    if (s.segment_end) cursor += gap;
    if (s.free) ++l.free_blocks;
    else {
      ++l.blocks;
      ++l.role_blocks[s.role];
      l.widened_blocks += it.length > weight(s) * scale + 1.0;
    }
  }
  l.used_px = cursor;

  // 4. Quads in address order: live blocks in their role's colour, cached free blocks dark with an
  // outline; anything narrower than 3 px folds into its neighbours. No quad lies under another.
  // Labels go on the widest row piece of every block wide enough: live blocks their name, free blocks
  // their size.
  RowWriter writer(l);
  Folder folder(writer, l, 0);
  for (size_t i = 0; i < l.items.size(); ++i) {
    const MemoryItem& it = l.items[i];
    const bool live = it.storage_id != 0;
    if (!live) {
      folder.add(it.offset, it.length, kSegmentFrame, 0, kQuadFrame);  // weight 0: a fold takes a live block's colour
    } else {
      const StorageInfo* st = index.find(it.storage_id);
      folder.add(it.offset, it.length, st ? role_color(it.role) : kUnknownBlock, it.bytes, 0);
      if (l.min_live_px == 0 || it.length < l.min_live_px) l.min_live_px = it.length;
    }
    if (it.length >= o.label_min_px && l.labels.size() < 400) {
      float x, y, w;
      if (l.widest_piece(i, &x, &y, &w) && w >= o.label_min_px) {
        l.labels.push_back({x, y, w, it.storage_id, it.bytes});
        ++(live ? l.labelled_blocks : l.labelled_free);
      }
    }
  }
  folder.flush();

  l.by_storage.reserve(l.blocks);
  for (size_t i = 0; i < l.items.size(); ++i)
    if (l.items[i].storage_id) l.by_storage.emplace_back(l.items[i].storage_id, uint32_t(i));
  std::sort(l.by_storage.begin(), l.by_storage.end());
  return l;
}

std::vector<std::string> scale_notes(const MemoryPaneLayout& l) {
  if (l.bytes_per_px <= 0 || l.items.empty()) return {};
  const std::string scale = "1 px \xe2\x89\x88 " + size_text(std::max(1.0, l.bytes_per_px));
  if (l.widened_blocks == 0) return {scale};
  if (l.widened_blocks >= l.blocks) return {"not to scale: every block drawn wide enough to read", "not to scale"};
  const std::string n = std::to_string(l.widened_blocks);
  return {scale + ", " + n + (l.widened_blocks == 1 ? " small block" : " small blocks") + " drawn wider",
          scale + " (" + n + " drawn wider)", n + " drawn wider"};
}

int MemoryPaneLayout::item_at(float x, float y) const {
  if (x < 0 || y < 0 || x >= width || items.empty()) return -1;
  const int row = int(y / row_pitch);
  if (row >= rows || y - float(row) * row_pitch > row_height) return -1;
  const double lin = double(row) * double(width) + double(x);
  auto it = std::upper_bound(items.begin(), items.end(), lin, [](double v, const MemoryItem& m) { return v < m.offset; });
  if (it == items.begin()) return -1;
  --it;
  // Sub-pixel items: anything within half a pixel counts as hit.
  if (lin > it->offset + it->length + 0.5) return -1;
  return int(it - items.begin());
}

bool MemoryPaneLayout::item_rect(size_t item, float* x, float* y, float* w, float* h) const {
  if (item >= items.size() || width <= 0) return false;
  const MemoryItem& it = items[item];
  const int row = int(it.offset / double(width));
  if (row >= rows) return false;
  const double px = it.offset - double(row) * double(width);
  *x = float(px);
  *y = float(row) * row_pitch;
  *w = float(std::max(std::min(it.length, double(width) - px), 1.0));
  *h = row_height;
  return true;
}

bool MemoryPaneLayout::widest_piece(size_t item, float* x, float* y, float* w) const {
  if (item >= items.size() || width <= 0) return false;
  const MemoryItem& it = items[item];
  const double wd = double(width);
  double a = it.offset, best = -1;
  const double end = std::min(it.offset + it.length, double(rows) * wd);
  while (a < end - 1e-9) {
    const int row = int(a / wd);
    const double px = a - double(row) * wd, piece = std::min(end - a, wd - px);
    if (piece > best + 0.5) {
      best = piece;
      *x = float(px);
      *y = float(row) * row_pitch;
      *w = float(piece);
    }
    a += piece;
  }
  return best >= 0;
}

int MemoryPaneLayout::find_storage(uint64_t id) const {
  auto it = std::lower_bound(by_storage.begin(), by_storage.end(), std::make_pair(id, uint32_t(0)));
  return it != by_storage.end() && it->first == id ? int(it->second) : -1;
}

}  // namespace ds::gui
