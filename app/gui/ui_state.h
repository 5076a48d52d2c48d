// Everything the views remember between frames, as one plain struct, and the commands they submit.
// Views read a Snapshot and UiState, and never touch the session: they push Commands that App runs.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gui/view_state/builder_lines.h"
#include "gui/view_state/memory_layout.h"
#include "gui/view_state/transfer_models.h"
#include "gui/view_state/transfer_sort.h"
#include "trace/export_chrome_trace.h"
#include "snapshot/memory_timeline.h"
#include "trace/snapshot.h"

namespace ds::gui {

struct ConsoleLine {
  enum class Kind { Input, Output, Error, Info };
  Kind kind = Kind::Output;
  std::string text;
};

enum class FileDialog { None, OpenScript, SaveScriptAs, ExportCsv, ExportTrace, Screenshot, OpenTrace,
                        OpenBench, SaveBenchJson, SaveBenchCsv };

struct UiState {
  // The session, as last published by the worker.
  uint64_t snapshot_version = 0;
  bool running = false;             // a job is on the worker thread
  std::string running_what;         // "Run", "Step", ...
  double running_since = 0;         // ImGui time
  std::string runner_name;          // the shown session's SessionStatus::describe
  std::string gl_renderer;

  // Editor.
  std::string script;
  std::string script_path;          // "" until opened/saved
  bool script_dirty = false;
  int current_line = 0;             // next statement Step runs (1-based), 0 when done
  int statements_done = 0, statement_count = 0;
  int error_line = 0;               // failing line of the last run, 0 when none
  std::string error_traceback;
  bool focus_editor = false;

  // Console.
  std::vector<ConsoleLine> console;
  std::string console_input;
  std::vector<std::string> history;
  int history_pos = -1;
  bool console_scroll = false;

  // Memory.
  MemoryScale memory_scale = MemoryScale::Fit;
  // Hover across views: a view sets hovered_storage this frame; every view outlines pointed_storage
  // (last frame's hover), so the memory panes and the names graph point at each other.
  uint64_t hovered_storage = 0;
  uint64_t pointed_storage = 0;

  // Transfers.
  int transfer_tab = 0;             // 0 timeline, 1 bandwidth, 2 table
  int transfer_tab_request = -1;    // select this tab on the next frame (-1: none)
  int console_tab_request = -1;     // 0 console, 1 builder
  double view_t0 = 0, view_t1 = 0;  // visible timeline range (ns)
  bool timeline_fit = true;         // re-fit the range when the data changes
  uint64_t hovered_transfer = 0;
  TransferColumn sort_column = TransferColumn::Id;
  bool sort_ascending = true;

  // Names graph.
  float graph_pan_x = 0, graph_pan_y = 0, graph_zoom = 1;
  bool graph_fit = true;            // fit the graph to the view until the user pans or zooms

  // The recording the window shows instead of the live session ("" when live): App's RecordingSession.
  std::string recording_path;
  // The Transfers view's models for a picture, built on a session's thread (an opened recording's: seconds
  // for millions of copies); the view takes them when it draws that picture.
  std::shared_ptr<TransferModels> prebuilt_models;
  // A PyTorch memory snapshot shown: active memory over time per device (the Memory over time window takes
  // the Transfers window's place), and the bucket whose moment the memory panes show (-1: the snapshot's).
  std::shared_ptr<const std::vector<snapshot::MemoryTimeline>> memory_timelines;
  int memory_moment_bucket = -1;
  // Memory over time stacks by source line (memory_viz's owners) or by category (parameter, gradient, ...);
  // -1 until the user picks: by category when the file names roles (a DeviceScope snapshot), else by line.
  int memory_by_category = -1;
  // Compare two moments: a right click marks one (A); the panes' moment (B) is then compared with it, by owner.
  int memory_mark_bucket = -1;
  struct MomentChange {
    std::string owner, place;
    uint64_t allocated = 0, freed = 0, bytes_a = 0, bytes_b = 0;
  };
  std::vector<MomentChange> memory_changes;  // largest change first
  uint64_t memory_changes_allocated = 0, memory_changes_freed = 0;
  bool memory_changes_known = false;
  // A recording being read on its session's thread (session/recording_session.h), copied by App each frame
  // for the loading strip; a failure's message waits in open_error for the modal (recording_open_view.h).
  std::string loading_path;  // "" when nothing loads
  uint64_t loading_read = 0, loading_done = 0, loading_total = 0;
  double loading_fraction = 0;
  std::string open_error;

  // Builder form.
  BuildArgs builder;
  int builder_device = 0;            // index into the device list
  std::string builder_error;

  // Layout and windows.
  bool reset_layout = true;
  bool show_memory = true, show_names = true, show_modules = true, show_transfers = true, show_editor = true,
       show_console = true, show_builder = true;
  bool show_about = false, show_shortcuts = false;
  // Lessons (lesson_view.cpp): the lesson window, and presenter mode (big fonts, only lesson + memory +
  // names, keyboard only).
  bool show_lessons = false;
  bool presenter = false;
  int editor_wrapped_rows = -1;  // presenter mode's wrapped editor: continuation rows drawn (-1: the editable text)
  bool show_bench = false;          // the Bench window (View > Bench)
  bool show_fits = false;           // What fits where (lesson 019; View > What fits where)

  // File dialog (a path prompt; no native dialogs in ImGui 1.86).
  FileDialog dialog = FileDialog::None;
  std::string dialog_path;
  std::string dialog_error;

  // One-line notice in the status bar ("Saved script.py").
  std::string notice;
  bool notice_error = false;
  double notice_until = 0;
};

struct Commands {
  enum class Kind {
    RunScript, Step, StepBack, Reset, Stop, RunLine, BuilderLine,
    OpenScript, SaveScript, ExportCsv, ExportTrace, Screenshot, OpenTrace, CloseTrace, Quit,
    OpenBench, SaveBenchJson, SaveBenchCsv, CancelOpenTrace, SeekMoment,
  };
  struct Command {
    Kind kind;
    std::string text;  // the line, or the path
  };
  std::vector<Command> list;
  void push(Kind k, std::string text = {}) { list.push_back({k, std::move(text)}); }
};

}  // namespace ds::gui
