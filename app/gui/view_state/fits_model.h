// Lesson 019's what-fits-where view, without ImGui: the request the view sends to devicescope.fits.what_fits
// (as call keyword arguments) and the result it draws, read from that function's JSON.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ds::gui {

struct FitsRequest {
  std::string model = "1b";       // a preset of llama_shapes.SHAPES: 70b, 8b, 1b, tiny
  std::string strategy = "fsdp";  // single, ddp, fsdp
  bool checkpoint = false;        // activation checkpointing per decoder layer
  int seq = 4096, batch = 1;
  std::string kwargs_json() const;
};

struct FitsDevice {
  std::string device;  // "cuda:0"
  bool simulated = true;
  std::string note;    // a device not simulated: why it shows nothing ("idle", or "the other ranks run the same")
  uint64_t peak = 0;
  std::string peak_phase, peak_module;
  int peak_step = 0;  // the training step (iteration, from 1) the peak is in; 0: unknown
  std::vector<std::pair<std::string, uint64_t>> by_category;  // in the result's category order
  struct Row {
    std::string module;
    uint64_t total = 0;
    std::vector<uint64_t> bytes;  // per category, in `FitsResult::categories` order
  };
  std::vector<Row> table;  // the largest modules at the peak
};

struct FitsResult {
  std::string model, strategy;
  bool checkpoint = false;
  int world_size = 1;
  uint64_t capacity = 0;  // each device's
  bool fits = false;
  std::vector<std::string> categories;
  std::string oom_message, oom_phase, oom_module;  // empty: no out-of-memory error
  int oom_step = 0;                                // the training step it happened in (from 1; 0: unknown)
  std::string error;                               // another failure of the run ("TypeError: ...")
  std::vector<FitsDevice> devices;
};

// Reads what_fits' JSON; a malformed text gives a result whose `error` says so.
FitsResult parse_fits_result(const std::string& json_text);

}  // namespace ds::gui
