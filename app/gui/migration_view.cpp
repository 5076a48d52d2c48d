// Flights, ghosts and held-source arrows for storages that moved in the last step.
#include "gui/migration_view.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <vector>

#include "gui/view_state/palette.h"
#include "gui/theme.h"

namespace ds::gui {
namespace {

constexpr double kFlight = 0.9;    // seconds a block travels
constexpr double kStagger = 0.035; // between consecutive flights
constexpr double kFade = 1.4;      // a freed source's ghost
constexpr size_t kMaxAnimated = 48;

ImVec2 lerp(ImVec2 a, ImVec2 b, float t) { return ImVec2(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t); }
ImVec2 centre(ImVec2 a, ImVec2 b) { return ImVec2((a.x + b.x) * 0.5f, (a.y + b.y) * 0.5f); }

// Quadratic arc from a to b bulging upwards.
ImVec2 arc(ImVec2 a, ImVec2 b, float t) {
  const ImVec2 c((a.x + b.x) * 0.5f, std::min(a.y, b.y) - 40.0f - std::fabs(a.x - b.x) * 0.12f);
  const float u = 1 - t;
  return ImVec2(u * u * a.x + 2 * u * t * c.x + t * t * b.x, u * u * a.y + 2 * u * t * c.y + t * t * b.y);
}

// `min_y`: the curve's highest point stays at or below it (the bottom of the pane headers above the ends).
void arrow(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 col, float thickness, float min_y) {
  ImVec2 c((a.x + b.x) * 0.5f, std::min(a.y, b.y) - 30.0f - std::fabs(a.x - b.x) * 0.08f);
  // A quadratic's extreme is 0.25 a + 0.5 c + 0.25 b (at t = 0.5 for these symmetric bulges).
  c.y = std::max(c.y, 2 * min_y - 0.5f * (a.y + b.y));
  dl->AddBezierQuadratic(a, c, b, col, thickness, 24);
  // Arrow head along the curve's end tangent (c -> b).
  ImVec2 d(b.x - c.x, b.y - c.y);
  const float len = std::sqrt(d.x * d.x + d.y * d.y);
  if (len < 1) return;
  d = ImVec2(d.x / len, d.y / len);
  const ImVec2 n(-d.y, d.x);
  const float s = 7.0f;
  dl->AddTriangleFilled(b, ImVec2(b.x - d.x * s * 1.6f + n.x * s, b.y - d.y * s * 1.6f + n.y * s),
                        ImVec2(b.x - d.x * s * 1.6f - n.x * s, b.y - d.y * s * 1.6f - n.y * s), col);
}

}  // namespace

void MigrationView::on_snapshot(uint64_t since, const Snapshot& next, const StorageIndex& index, const RectOf& old_rect,
                                double now) {
  moves_.clear();
  more_ = 0;
  for (const StorageInfo& s : next.storages) {
    if (!s.moved_from || s.created_seq <= since) continue;  // only moves made since the last picture
    if (moves_.size() >= kMaxAnimated) {
      ++more_;
      continue;
    }
    Migration m;
    m.src = s.moved_from;
    m.dst = s.id;
    m.owner = display_name(s);
    m.color = role_color(s.role);
    m.from_known = old_rect(s.moved_from, &m.from_min, &m.from_max);
    if (const StorageInfo* src = index.find(s.moved_from)) {
      m.source_live = true;
      m.matters = s.role == Role::Parameter || s.role == Role::Buffer || s.role == Role::Gradient ||
                  s.role == Role::OptimizerState || s.role == Role::PlainAttribute;
      for (const std::string& h : src->holders) m.holders += (m.holders.empty() ? "" : ", ") + h;
      if (m.holders.empty()) m.holders = src->owner.empty() ? "an unnamed reference" : src->owner;
    }
    m.start = now + kStagger * double(moves_.size());
    moves_.push_back(std::move(m));
  }
}

bool MigrationView::any_held_that_matters() const {
  for (const Migration& m : moves_)
    if (m.matters) return true;
  return false;
}

std::string MigrationView::held_text(const std::string& holders) {
  const bool several = holders.find(", ") != std::string::npos;
  return "old copy stays: " + holders + (several ? " still name it" : " still names it");
}

void MigrationView::draw(ImDrawList* dl, const RectOf& rect, double now, bool settled, const std::vector<ImVec4>& avoid,
                         const std::vector<ImVec4>& headers) {
  ImFont* font = fonts().small;
  // Labels placed so far and the rects to keep clear: a new label tries below its block, then above, then
  // further down, and is left out when every place is taken.
  std::vector<ImVec4> labels = avoid;
  held_labels_ = held_left_out_ = 0;
  left_out_holders_.clear();
  std::vector<uint64_t> labelled;  // one label per source, however many copies were made of it
  for (const Migration& m : moves_) {
    ImVec2 dmin, dmax, smin, smax;
    const bool have_dst = rect(m.dst, &dmin, &dmax);
    const bool have_src_now = m.matters && rect(m.src, &smin, &smax);
    const double t = settled ? 1e9 : now - m.start;
    if (!have_dst) continue;
    if (t < 0) {
      // Waiting for its turn: the destination is hidden under a dark veil so the flight "fills" it.
      dl->AddRectFilled(dmin, dmax, IM_COL32(0x12, 0x15, 0x1b, 0xd0));
      continue;
    }
    const ImU32 col = m.color;
    if (t < kFlight && m.from_known) {
      // In flight: the block travels from where the source was to where the copy now is.
      const float p = float(t / kFlight);
      const float e = p < 0.5f ? 2 * p * p : 1 - std::pow(-2 * p + 2, 2.0f) / 2;  // ease in-out
      const ImVec2 a = centre(m.from_min, m.from_max), b = centre(dmin, dmax);
      const ImVec2 pos = arc(a, b, e);
      const ImVec2 size = lerp(ImVec2(m.from_max.x - m.from_min.x, m.from_max.y - m.from_min.y),
                               ImVec2(dmax.x - dmin.x, dmax.y - dmin.y), e);
      const ImVec2 half(std::clamp(size.x * 0.5f, 4.0f, 60.0f), std::clamp(size.y * 0.5f, 4.0f, 12.0f));
      for (int k = 1; k <= 6; ++k) {  // a short trail
        const float pe = std::max(0.0f, e - 0.035f * float(k));
        const ImVec2 tp = arc(a, b, pe);
        dl->AddCircleFilled(tp, 3.5f - 0.4f * float(k), with_alpha(col, 0.5f - 0.07f * float(k)));
      }
      dl->AddRectFilled(ImVec2(pos.x - half.x, pos.y - half.y), ImVec2(pos.x + half.x, pos.y + half.y), col, 3);
      dl->AddRect(ImVec2(pos.x - half.x - 1, pos.y - half.y - 1), ImVec2(pos.x + half.x + 1, pos.y + half.y + 1),
                  IM_COL32(255, 255, 255, 200), 3, 0, 1.5f);
      dl->AddRectFilled(dmin, dmax, IM_COL32(0x12, 0x15, 0x1b, ImU32(0xd0 * (1 - e))));
      if (!m.source_live) dl->AddRect(m.from_min, m.from_max, with_alpha(col, 0.9f), 2, 0, 1.5f);
      continue;
    }
    const double after = t - (m.from_known ? kFlight : 0);
    // Landed: a short glow on the destination.
    if (after < 0.6) {
      const float g = float(1 - after / 0.6);
      dl->AddRect(ImVec2(dmin.x - 2, dmin.y - 2), ImVec2(dmax.x + 2, dmax.y + 2), with_alpha(IM_COL32(255, 255, 255, 255), g), 3, 0, 2);
    }
    if (!m.source_live && m.from_known && after < kFade) {
      // The freed source fades out where it was.
      const float a = float(1 - after / kFade);
      dl->AddRectFilled(m.from_min, m.from_max, with_alpha(col, 0.35f * a), 2);
      dl->AddRect(m.from_min, m.from_max, with_alpha(IM_COL32(255, 255, 255, 255), 0.6f * a), 2, 0, 1);
      if (m.from_max.x - m.from_min.x > 40)
        dl->AddText(font, font->FontSize, ImVec2(m.from_min.x + 4, m.from_min.y + 3), with_alpha(theme::kText, a), "freed");
    }
    if (have_src_now) {
      // Still held: the source stays lit, with an arrow to its copy and who keeps it alive.
      dl->AddRect(ImVec2(smin.x - 1, smin.y - 1), ImVec2(smax.x + 1, smax.y + 1), theme::kWarning, 2, 0, 2);
      const ImVec2 a = centre(smin, smax), b = centre(dmin, dmax);
      float min_y = -FLT_MAX;  // below the header of each end's pane
      for (const ImVec4& h : headers)
        for (const ImVec2& e : {a, b})
          if (e.x >= h.x && e.x <= h.z && e.y >= h.w) min_y = std::max(min_y, h.w + 2);
      arrow(dl, a, b, with_alpha(theme::kWarning, 0.8f), 1.5f, min_y);
      if (std::find(labelled.begin(), labelled.end(), m.src) != labelled.end()) continue;
      labelled.push_back(m.src);
      const std::string text = held_text(m.holders);
      const ImVec2 ts = font->CalcTextSizeA(font->FontSize, FLT_MAX, 0, text.c_str());
      const ImVec4 clip = dl->GetClipRectMax().x > 0 ? ImVec4(dl->GetClipRectMin().x, dl->GetClipRectMin().y, dl->GetClipRectMax().x, dl->GetClipRectMax().y) : ImVec4();
      auto overlaps = [&](const ImVec2& q) {
        if (q.y < clip.y || q.y + ts.y + 2 > clip.w) return true;
        for (const ImVec4& r : labels)
          if (q.x - 2 < r.z && q.x + ts.x + 4 > r.x && q.y - 1 < r.w && q.y + ts.y + 1 > r.y) return true;
        return false;
      };
      float x = smin.x;
      if (x + ts.x + 6 > clip.z) x = std::max(clip.x + 2, clip.z - ts.x - 6);  // keep the label on screen
      std::vector<ImVec2> spots = {ImVec2(x, smax.y + 2), ImVec2(x, smin.y - ts.y - 3)};
      for (int k = 1; k <= 12; ++k) spots.push_back(ImVec2(x, smax.y + 2 + float(k) * (ts.y + 3)));
      const ImVec2* chosen = nullptr;
      for (const ImVec2& q : spots)
        if (!overlaps(q)) {
          chosen = &q;
          break;
        }
      if (!chosen) {
        ++held_left_out_;
        left_out_holders_.push_back(m.holders);
        continue;
      }
      const ImVec2 p = *chosen;
      ++held_labels_;
      labels.push_back(ImVec4(p.x - 2, p.y - 1, p.x + ts.x + 4, p.y + ts.y + 1));
      dl->AddRectFilled(ImVec2(p.x - 2, p.y - 1), ImVec2(p.x + ts.x + 4, p.y + ts.y + 1), IM_COL32(0x30, 0x22, 0x08, 0xe8), 3);
      dl->AddText(font, font->FontSize, ImVec2(p.x + 1, p.y), theme::kWarning, text.c_str());
    }
  }
}

}  // namespace ds::gui
