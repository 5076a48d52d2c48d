// The strip's window: a title line with the totals, then the rows, newest first.
#include "gui/transfer_strip.h"

#include <imgui.h>
#include <nlohmann/json.hpp>

#include <algorithm>

#include "gui/theme.h"

namespace ds::gui {
namespace {

float row_h() { return fonts().small->FontSize + 10; }
float text_w(ImFont* f, const std::string& s) { return f->CalcTextSizeA(f->FontSize, FLT_MAX, 0, s.c_str()).x; }

}  // namespace

float TransferStrip::height_for(size_t rows) {
  const ImGuiStyle& st = ImGui::GetStyle();
  return st.WindowPadding.y * 2 + fonts().bold->FontSize + st.ItemSpacing.y + 4 + float(rows) * row_h() + 2;
}

void TransferStrip::draw(const Snapshot& snap, const WindowRect& where) {
  // Rebuilt when the copies change (a count, or the newest one finishing), never per frame.
  const uint64_t last_id = snap.transfers.empty() ? 0 : snap.transfers.back().id;
  const bool last_complete = !snap.transfers.empty() && snap.transfers.back().complete;
  if (&snap != last_ || snap.transfers.size() != last_count_ || last_id != last_last_id_ || last_complete != last_last_complete_) {
    model_ = make_transfer_strip(snap, kMaxRows);
    last_ = &snap;
    last_count_ = snap.transfers.size();
    last_last_id_ = last_id;
    last_last_complete_ = last_complete;
  }
  ImGui::SetNextWindowPos(where.pos, ImGuiCond_Always);
  ImGui::SetNextWindowSize(where.size, ImGuiCond_Always);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                                 ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse;
  drawn_ = false;
  if (!ImGui::Begin("Transfers###PresenterTransfers", nullptr, flags)) {
    ImGui::End();
    return;
  }
  drawn_ = true;
  ImFont* bold = fonts().bold;
  ImFont* small = fonts().small;
  ImGui::PushFont(bold);
  ImGui::TextUnformatted("Transfers");
  ImGui::PopFont();
  ImGui::SameLine(0, 14);
  if (model_.total == 0) {
    ImGui::TextDisabled("no host/device copies yet");
  } else {
    const std::string sum = std::to_string(model_.total) + (model_.total == 1 ? " copy, " : " copies, ") + fmt_bytes(model_.total_bytes);
    ImGui::TextDisabled("%s", sum.c_str());
    if (model_.simulated) {
      ImGui::SameLine(0, 10);
      simulated_badge("copy timings");
    }
  }

  // Columns as wide as their widest cell; the tags take what is left, with an ellipsis.
  float wroute = 0, wsize = 0, wtime = 0, wrate = 0;
  for (const TransferStripRow& r : model_.rows) {
    wroute = std::max(wroute, text_w(small, r.route));
    wsize = std::max(wsize, text_w(small, r.size));
    wtime = std::max(wtime, text_w(small, r.time));
    wrate = std::max(wrate, text_w(small, r.rate));
  }
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float gap = small->FontSize * 0.8f;
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  const float width = ImGui::GetContentRegionAvail().x, bottom = ImGui::GetWindowPos().y + ImGui::GetWindowHeight() - 2;
  shown_ = 0;
  clipped_ = wroute + wsize + wtime + wrate + 5 * gap + 8 > width;
  float y = p0.y + 2;
  for (const TransferStripRow& r : model_.rows) {
    if (y + row_h() > bottom) break;
    ++shown_;
    const float h = row_h() - 3;
    // The bar: as long as this copy took, against the longest shown; an unfinished copy is outlined.
    if (r.in_flight) {
      dl->AddRect(ImVec2(p0.x, y), ImVec2(p0.x + width, y + h), theme::kWarning, 3, 0, 2);
    } else {
      dl->AddRectFilled(ImVec2(p0.x, y), ImVec2(p0.x + std::max(6.0f, float(r.bar) * width), y + h), with_alpha(r.color, 0.30f), 3);
    }
    dl->AddRectFilled(ImVec2(p0.x, y), ImVec2(p0.x + 4, y + h), r.color, 2);
    const float ty = y + (h - small->FontSize) * 0.5f;
    float x = p0.x + 10;
    auto cell = [&](const std::string& s, float w, ImU32 col, bool right) {
      dl->AddText(small, small->FontSize, ImVec2(right ? x + w - text_w(small, s) : x, ty), col, s.c_str());
      x += w + gap;
    };
    cell(r.route, wroute, theme::kText, false);
    cell(r.size, wsize, theme::kText, true);
    cell(r.time, wtime, r.in_flight ? theme::kWarning : theme::kText, true);
    cell(r.rate, wrate, theme::kTextDim, true);
    std::string tags;
    for (const std::string& t : r.tags) tags += (tags.empty() ? "" : " \xc2\xb7 ") + t;
    if (tags.empty()) tags = r.owner;
    const std::string shown = fit_text(small, tags, p0.x + width - x - 4);
    dl->AddText(small, small->FontSize, ImVec2(x, ty), r.in_flight ? theme::kWarning : theme::kTextDim, shown.c_str());
    y += row_h();
  }
  ImGui::Dummy(ImVec2(width, std::max(0.0f, y - p0.y)));
  ImGui::End();
}

void TransferStrip::write_view_model(nlohmann::json& j) const {
  using nlohmann::json;
  json rows = json::array();
  for (size_t i = 0; i < shown_ && i < model_.rows.size(); ++i) {
    const TransferStripRow& r = model_.rows[i];
    rows.push_back({{"route", r.route}, {"size", r.size}, {"time", r.time}, {"rate", r.rate}, {"tags", r.tags},
                    {"in_flight", r.in_flight}, {"bar", r.bar}});
  }
  j["transfer_strip"] = {{"drawn", drawn_}, {"rows", rows}, {"total", model_.total}, {"earlier", model_.earlier},
                         {"clipped", clipped_}};
}

}  // namespace ds::gui
