// Where bytes live: pageable host memory, pinned (page-locked) host memory, or one CUDA device.
#pragma once

#include <string>

namespace ds {

enum class MemoryKind : int8_t { Pageable = 0, Pinned = 1, Device = 2 };

struct Place {
  MemoryKind kind = MemoryKind::Pageable;
  int device = -1;  // CUDA device index when kind == Device, else -1
  // The torchrun rank the place belongs to, when a folder of per-rank recordings is shown together
  // (`devicescope record` under torchrun); -1: a single process (every live session and recording).
  int rank = -1;

  static Place pageable() { return {MemoryKind::Pageable, -1}; }
  static Place pinned() { return {MemoryKind::Pinned, -1}; }
  static Place cuda(int index) { return {MemoryKind::Device, index}; }
  bool is_host() const { return kind != MemoryKind::Device; }
  bool operator==(const Place& o) const { return kind == o.kind && device == o.device && rank == o.rank; }
  bool operator!=(const Place& o) const { return !(*this == o); }
  std::string str() const {  // "pageable", "pinned", "cuda:0"; "rank 1 cuda:0" in a folder of ranks
    const std::string own = kind == MemoryKind::Pageable ? "pageable" : kind == MemoryKind::Pinned ? "pinned"
                                                                       : "cuda:" + std::to_string(device);
    return rank < 0 ? own : "rank " + std::to_string(rank) + " " + own;
  }
};

}  // namespace ds
