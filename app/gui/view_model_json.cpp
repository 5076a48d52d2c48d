// App::write_view_model: what each view drew, as JSON beside a headless screenshot, so that tests can
// check that the panes show what the script created without reading pixels.
#include <imgui_internal.h>  // the window display order (GImGui->Windows), for "windows_front_to_back"
#include <nlohmann/json.hpp>

#include "gui/app.h"
#include "gui/theme.h"
#include "gui/view_state/palette.h"
#include "render/layer_cache.h"
#include "trace/atomic_file.h"

namespace ds::gui {

void App::write_view_model(const std::string& path, int width, int height) const {
  using nlohmann::json;
  const Snapshot& snap = *snapshot_;
  json j;
  j["size"] = {width, height};
  j["backend"] = snap.backend;
  j["simulated"] = snap.simulated;
  j["link"] = snap.link;
  j["runner"] = ui_.runner_name;
  j["script"] = {{"path", ui_.script_path},
                 {"current_line", ui_.current_line},
                 {"statements_done", ui_.statements_done},
                 {"statement_count", ui_.statement_count},
                 {"error_line", ui_.error_line},
                 {"editor_wrapped_rows", ui_.editor_wrapped_rows},
                 {"error", ui_.error_traceback}};
  json colors = json::object();
  for (Role r : kAllRoles) colors[role_label(r)] = color_hex(role_color(r));
  j["colors"] = colors;

  StorageIndex index;
  index.build(snap);
  json panes = json::array();
  for (const MemoryView::PaneInfo& p : memory_.panes()) {
    const MemoryPaneLayout& L = *p.layout;
    const PlaceInfo& place = snap.places[L.place_index];
    json roles = json::object();
    for (const auto& [role, n] : L.role_blocks) roles[role_label(role)] = n;
    json owners = json::array();
    for (const MemoryItem& it : L.items) {
      if (!it.storage_id || owners.size() >= 200) continue;
      if (const StorageInfo* s = index.find(it.storage_id)) owners.push_back(display_name(*s));
    }
    panes.push_back({{"place", place.place.str()},
                     {"label", place.label},
                     {"rect", {p.min.x, p.min.y, p.max.x - p.min.x, p.max.y - p.min.y}},
                     {"blocks", L.blocks},
                     {"segments", L.segments},
                     {"free_blocks", L.free_blocks},
                     {"quads", L.quads.size()},
                     {"folded_quads", L.folded_quads},
                     {"wrap_marks", L.wrap_marks.size()},
                     {"widened_blocks", L.widened_blocks},
                     {"scale_notes", scale_notes(L)},
                     {"labels", L.labels.size()},
                     {"labelled_blocks", L.labelled_blocks},
                     {"labelled_free", L.labelled_free},
                     {"min_block_px", L.min_live_px},
                     {"block_rows", L.rows},
                     {"row_height", L.row_height},
                     {"header_clipped", p.header->clipped},
                     {"header_badge", p.header->badge},
                     {"header_lines", p.header->figures.size()},
                     {"roles", roles},
                     {"owners", owners},
                     {"allocated", place.allocated},
                     {"reserved", place.reserved},
                     {"capacity", place.capacity},
                     {"simulated", place.simulated}});
  }
  j["panes"] = panes;

  json moves = json::array();
  for (const Migration& m : memory_.migration().migrations())
    moves.push_back({{"src", m.src}, {"dst", m.dst}, {"owner", m.owner}, {"source_live", m.source_live}, {"held_matters", m.matters}, {"holders", m.holders}});
  j["migrations"] = moves;
  j["held_labels"] = {{"shown", memory_.migration().held_labels()}, {"left_out", memory_.migration().held_labels_left_out()}};
  j["memory_footer"] = memory_.footer_text();

  const GraphLayout& g = names_.layout();
  json names = json::array();
  for (const ObjectNode& n : snap.objects.nodes)
    if (n.kind == ObjectKind::Name) names.push_back(n.label);
  j["names"] = {{"nodes", snap.objects.nodes.size()}, {"edges", snap.objects.edges.size()}, {"boxes", g.boxes.size()},
                {"changed", g.changed}, {"names", names}, {"storages", g.storages}, {"unreachable", g.unreachable},
                {"columns", g.columns}, {"crossings", count_crossings(g, names_.options())},
                {"zoom", names_.last_zoom()}, {"fits", names_.last_fits()},
                {"drawn", {g.width * names_.last_zoom(), g.height * names_.last_zoom()}},
                {"view", {names_.last_view_w(), names_.last_view_h()}},
                // Issue 24 item 2: readable at any size - the text height drawn, boxes cut off, folds.
                {"min_text_px", names_.min_text_px()}, {"cut_off", names_.cut_off()},
                {"folded", names_.folded()}, {"names_hidden", names_.names_hidden()}};
  size_t stragglers = 0;
  for (const ModuleEntry& e : snap.objects.modules) stragglers += e.straggler;
  j["modules"] = {{"rows", snap.objects.modules.size()}, {"stragglers", stragglers}};

  json lanes = json::array();
  const TimelineModel& tl = transfers_.timeline();
  for (const TimelineLane& l : tl.lanes)
    lanes.push_back({{"name", l.name}, {"items", l.start.size()}, {"clock", l.measured ? "measured" : "modelled"}});
  json drawn = json::array();  // copies drawn on their own: transfer id and pixels (Note [Two clocks on one timeline])
  for (const TransferView::DrawnCopy& d : transfers_.last_drawn())
    drawn.push_back({{"id", d.id}, {"x0", d.x0}, {"x1", d.x1}, {"in_flight", d.in_flight}});
  j["transfers"] = {{"count", snap.transfers.size()},
                    {"lanes", lanes},
                    {"timeline_quads", transfers_.last_timeline_quads()},
                    {"folded", transfers_.last_folded()},
                    {"two_clocks", tl.two_clocks},
                    {"clock_breaks", tl.breaks.size()},
                    {"host_scale", tl.host_scale},
                    {"host_reads", transfers_.last_host_reads()},
                    {"drawn", drawn}};
  json in_flight = json::array();  // destinations of copies not yet folded by a sync point (stale bytes)
  for (const StorageInfo& st : snap.storages)
    if (st.in_flight) in_flight.push_back({{"id", st.id}, {"place", st.place.str()}, {"holders", st.holders}});
  j["in_flight_storages"] = in_flight;
  if (ui_.show_fits && fits_.result()) {  // What fits where: the estimate the window shows
    const FitsResult& r = *fits_.result();
    json devices = json::array();
    for (const FitsDevice& d : r.devices) {
      json by = json::object();
      for (const auto& [cat, bytes] : d.by_category) by[cat] = bytes;
      devices.push_back({{"device", d.device}, {"peak", d.peak}, {"over_capacity", r.capacity && d.peak > r.capacity}, {"simulated", d.simulated},
                         {"by_category", by}, {"table_rows", d.table.size()}});
    }
    j["fits"] = {{"model", r.model}, {"strategy", r.strategy}, {"checkpoint", r.checkpoint}, {"capacity", r.capacity},
                 {"fits", r.fits}, {"oom", r.oom_message}, {"error", r.error}, {"devices", devices}};
  }
  if (ui_.memory_timelines) {  // a PyTorch memory snapshot shown: the Memory over time window
    json timelines = json::array();
    for (const snapshot::MemoryTimeline& t : *ui_.memory_timelines)
      timelines.push_back({{"device", t.device}, {"buckets", t.x.size()}, {"categories", t.categories}, {"roles", t.roles}, {"peak", t.peak},
                           {"marks", t.marks.size()}});
    j["memory_timelines"] = timelines;
    j["memory_moment_bucket"] = ui_.memory_moment_bucket;
    j["memory_stacked_by"] = ui_.memory_by_category == 1 ? "category" : "source line";
  }
  if (!snap.source.path.empty())  // the window shows a file opened for viewing
    j["recording"] = {{"path", snap.source.path}, {"transfers", snap.transfers.size()},
                      {"simulated", snap.simulated}, {"backend", snap.backend}};
  if (!ui_.loading_path.empty())  // a recording still opening (--hold-loading): what the loading strip shows
    j["loading"] = {{"path", ui_.loading_path},
                    {"file", ui_.loading_path.substr(ui_.loading_path.find_last_of('/') + 1)},
                    {"bytes_read", ui_.loading_read},
                    {"bytes_done", ui_.loading_done},
                    {"bytes_total", ui_.loading_total}};
  if (!ui_.open_error.empty()) j["open_error"] = ui_.open_error;
  if (ui_.show_bench) j["bench"] = bench_.view_model();
  // Visible top-level windows, frontmost first: tests check that a floating window is not hidden behind a pane.
  json windows = json::array();
  const ImGuiContext& imgui = *ImGui::GetCurrentContext();
  for (int i = imgui.Windows.Size - 1; i >= 0; --i) {
    const ImGuiWindow* w = imgui.Windows[i];
    if (w->Active && !w->Hidden && !(w->Flags & ImGuiWindowFlags_ChildWindow)) windows.push_back(w->Name);
  }
  j["windows_front_to_back"] = windows;
  // The last frame's layer cache (render/layer_cache.h): windows shown from their images, of those drawn.
  const render::LayerCache::Stats& lc = render::frame_layer_cache().stats();
  j["layer_cache"] = {{"windows", lc.groups}, {"copied", lc.copied}};
  j["replacement_glyphs_drawn"] = replacement_glyphs_drawn();  // U+FFFD on screen: broken UTF-8, missing glyphs
  lessons_.write_view_model(j, ui_);
  write_file_atomically(path, [&](std::ostream& out) { out << j.dump(2) << "\n"; });
}

}  // namespace ds::gui
