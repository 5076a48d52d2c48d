// The Builder's buttons as Python: each action becomes the one line a user could have typed, which the
// app appends to the editor script and runs through the same interpreter (one path for everything).
#pragma once

#include <cstdint>
#include <string>

namespace ds::gui {

enum class BuildKind {
  Linear, Conv2d, BatchNorm1d, BatchNorm2d, LayerNorm, Embedding, Sequential, ModuleList, EmptyModule,
  Tensor, Parameter, Buffer, PlainAttribute, Alias, Delete,
  To, Cuda, Cpu, Half, PinMemory, EmptyCache, Synchronize,
};

struct BuildArgs {
  std::string target;        // the name being bound ("layer"); empty for in-place calls
  std::string source;        // the object acted on ("model", "model.fc")
  std::string attr;          // attribute name for Parameter/Buffer/PlainAttribute
  std::string shape = "4, 4";  // tensor sizes as typed
  int64_t a = 0, b = 0, c = 0; // layer figures (in/out, channels, kernel, ...)
  bool bias = true;
  std::string items;         // Sequential/ModuleList members as typed: "nn.Linear(4, 4), nn.ReLU()"
  std::string device = "cuda:0";
  bool non_blocking = false;
  bool in_place = false;     // To/Cuda/Cpu/Half on a module: `model.to(...)` (Module.to returns self)
};

// The Python line, or "" with `error` set when an argument is not usable (e.g. "model 1" is no name).
std::string build_line(BuildKind kind, const BuildArgs& args, std::string* error = nullptr);

bool is_identifier(const std::string& name);   // Python identifier, not a keyword
bool is_reference(const std::string& text);    // identifier(.identifier | [int])*

}  // namespace ds::gui
