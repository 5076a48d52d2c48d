// A read-only picture of the runtime for views: places, storages, allocator segments, names.
// Built by Runtime::snapshot(); the Python layer fills the names graph and module tree.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/place.h"
#include "core/role.h"
#include "trace/records.h"

namespace ds {

struct StorageInfo {
  uint64_t id = 0;
  Place place;
  uint64_t nbytes = 0;        // what the tensor asked for
  uint64_t block_bytes = 0;   // what the allocator handed out (rounded)
  uint64_t address = 0;       // device/pinned address (for placing inside segments); 0 if none
  bool virtual_bytes = false;
  Role role = Role::Tensor;
  std::string owner;          // first known owner name: "model.linear.weight"
  std::vector<std::string> holders;  // every name that keeps it alive ("wd", "model.fc.weight", "saved[0]")
  std::string dtype;          // "float32" of the tensor that created it
  std::vector<int64_t> shape; // of the tensor that created it
  uint64_t created_seq = 0;
  uint64_t moved_from = 0;    // storage id this one was copied from by the last move, 0 if none
  bool in_flight = false;     // the destination of an async copy not yet folded by a sync point: stale bytes
};

struct BlockInfo {
  uint64_t address = 0;
  uint64_t size = 0;
  bool allocated = false;
  int stream = 0;
  uint64_t storage_id = 0;  // when allocated and known
};

struct SegmentInfo {
  int device = 0;               // -1 for the pinned host pool
  uint64_t address = 0;
  uint64_t size = 0;
  bool small_pool = false;
  bool virtual_bytes = false;
  std::vector<BlockInfo> blocks;  // address order, covering the segment
};

struct PlaceInfo {
  Place place;
  std::string label;        // "host (pageable)", "host (pinned)", "cuda:0"
  std::string detail;       // device name / link profile
  uint64_t allocated = 0;   // live blocks (memory_allocated)
  uint64_t reserved = 0;    // segments held (memory_reserved); pageable: == allocated
  uint64_t capacity = 0;    // 0 = unbounded (host)
  bool simulated = false;
  // The source does not say (a PyTorch memory snapshot records no device size): draw "capacity unknown",
  // never "capacity 0 bytes"; `capacity` is then 0.
  bool capacity_unknown = false;
};

// Python-Tutor-style object graph: names -> objects, objects -> objects.
enum class ObjectKind : int8_t { Name, Module, Parameter, Buffer, Tensor, List, Dict, Tuple, Optimizer, Other };
struct ObjectNode {
  uint64_t id = 0;           // Python id() or a frame-local id for names
  ObjectKind kind = ObjectKind::Other;
  std::string label;         // "model", "Linear(in=10, out=2)", "tensor cuda:0 [10, 2] float32"
  std::string device;        // "cpu", "cuda:0", "" when none
  uint64_t storage_id = 0;
  bool changed = false;      // differs from the previous step (highlight)
};
struct ObjectEdge {
  uint64_t from = 0, to = 0;
  std::string label;         // attribute / key / index
};

// Module tree rows in depth-first order.
struct ModuleEntry {
  int depth = 0;
  std::string path;          // "model.encoder.0"
  std::string type;          // "Linear", or the tensor kind for leaves
  ObjectKind kind = ObjectKind::Module;  // Module, Parameter, Buffer, or Tensor (plain attribute)
  std::string device;        // leaves: where they are
  std::string dtype;
  std::vector<int64_t> shape;
  bool straggler = false;    // not on the module's majority device
  uint64_t storage_id = 0;
};

// Every path a storage is reachable by from the script's names: "wd", "model.fc.weight", "saved[0]",
// "d['b']" (through lists, dicts and plain objects too, which name -> tensor edges alone do not show).
struct StorageHolders {
  uint64_t storage_id = 0;
  std::vector<std::string> names;
};

struct ObjectGraph {
  std::vector<ObjectNode> nodes;
  std::vector<ObjectEdge> edges;
  std::vector<ModuleEntry> modules;
  std::vector<StorageHolders> holders;  // empty when the producer does not compute paths
};

// Where a picture comes from: empty for a live session; a recording opened from a file names the file and
// what wrote it (the Transfers view's banner, the export of an opened recording).
struct SnapshotSource {
  std::string path;     // the file ("" for a live session)
  std::string version;  // the DeviceScope version that wrote it
  std::string machine;  // one line about the machine it was recorded on
};

struct Snapshot {
  SnapshotSource source;
  uint64_t seq = 0;            // last event sequence number included
  uint64_t time_ns = 0;
  std::string backend;         // "sim" / "cuda"
  bool simulated = true;
  std::string link;            // link profile name
  std::vector<PlaceInfo> places;      // pageable, pinned, cuda:0, cuda:1, ...
  std::vector<StorageInfo> storages;  // live storages
  std::vector<SegmentInfo> segments;  // device and pinned allocator segments
  std::vector<TransferRecord> transfers;  // the recorded transfers the event log still holds (its window)
  uint64_t events_dropped = 0;     // likewise for events
  uint64_t transfers_dropped = 0;  // older transfers the bounded event log no longer holds (Note [Bounded event log])
  std::string window_note;         // EventLog::window_note(): what was dropped; empty when nothing was
  ObjectGraph objects;         // the session's names graph (python::PythonSession; empty for pure C++ use)
};

}  // namespace ds
