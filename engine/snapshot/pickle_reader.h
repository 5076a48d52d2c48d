// A restricted unpickler for the files torch.cuda.memory._dump_snapshot() writes (pickle protocols
// 0-5 as Python's pickle.dump emits them for plain data). It builds only dicts, lists, tuples,
// strings, bytes, ints, floats, bools and None: every opcode that could import a name, call
// something or build an object (GLOBAL, STACK_GLOBAL, REDUCE, BUILD, INST, OBJ, NEWOBJ, PERSID,
// EXT*, sets, out-of-band buffers) is refused with a ValueError naming the opcode and its byte
// offset, before anything after it is read. Opening a file therefore never runs code.
//
// The tree lives in one arena (PickleDocument): values refer to each other by index, so the
// pickle's memo (GET of an object stored earlier) shares the value instead of copying it: a
// frame filename repeated a million times is one string. Cycles (a list that contains itself)
// are harmless: nothing is reference counted and nothing here walks the tree recursively.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "trace/load_progress.h"

namespace ds::snapshot {

// Converted kinds: a container an AppendHook turned into its own typed record while reading, so it is
// neither kept as a tree nor converted again at its next reference (bits: the hook's own index):
// Taken (a trace entry dict), Frame (a frame dict), Stack (a list of frames). Freed: a recycled slot
// (never reachable from the tree).
enum class PickleKind : uint8_t { None, Bool, Int, Float, String, Bytes, List, Tuple, Dict, Taken, Frame, Stack, Freed };
const char* pickle_kind_name(PickleKind k);

using ValueId = uint32_t;

// 16 bytes: a snapshot has tens of millions of values.
struct PickleValue {
  PickleKind kind = PickleKind::None;
  bool shared = false;  // stored in the memo (or DUP'ed): other places may refer to it
  uint64_t bits = 0;  // Bool: 0/1; Int: int64 bits; Float: double bits; String/Bytes: string index;
                      // List/Tuple/Dict: container index (Dict items are key, value, key, value, ...)
};

struct PickleLimits {
  uint64_t max_file_bytes = uint64_t(64) << 30;  // refuse larger files unread
  size_t max_stack = size_t(1) << 20;            // values waiting on the unpickler's stack
  size_t max_marks = 1024;                       // open MARKs: how deeply MARK-built containers nest
  uint32_t max_depth = 512;                      // containers inside containers (a snapshot needs about 6)
};

class PickleDocument {
 public:
  ValueId root = 0;
  const PickleValue& at(ValueId id) const { return values_[id]; }
  size_t value_count() const { return values_.size(); }

  PickleKind kind(ValueId id) const { return values_[id].kind; }
  bool is_int(ValueId id) const { return kind(id) == PickleKind::Int; }
  int64_t as_int(ValueId id) const { return int64_t(values_[id].bits); }
  double as_float(ValueId id) const;
  bool as_bool(ValueId id) const { return values_[id].bits != 0; }
  // String and Bytes both (a protocol-0/1 BINSTRING reads as a string).
  bool is_text(ValueId id) const { return kind(id) == PickleKind::String || kind(id) == PickleKind::Bytes; }
  const std::string& as_text(ValueId id) const { return strings_[values_[id].bits]; }
  bool is_sequence(ValueId id) const { return kind(id) == PickleKind::List || kind(id) == PickleKind::Tuple; }
  const std::vector<ValueId>& items(ValueId id) const { return containers_[values_[id].bits]; }
  // Dict lookup by string key; nullptr when absent or when `id` is not a dict.
  const ValueId* find(ValueId dict, std::string_view key) const;

  // Builders (used by the reader).
  ValueId add(PickleKind kind, uint64_t bits);
  ValueId add_text(PickleKind kind, std::string text);
  ValueId add_container(PickleKind kind, std::vector<ValueId> items = {});
  std::vector<ValueId>& mutable_items(ValueId id) { return containers_[values_[id].bits]; }
  void mark_shared(ValueId id) { values_[id].shared = true; }
  // For an AppendHook that converted the container `id`: it becomes `converted` (Taken, Frame or Stack)
  // with bits `index`; its item list and the scalars only it refers to are recycled, so a streamed trace
  // holds one batch of entries, not all of them.
  void convert(ValueId id, PickleKind converted, uint64_t index);
  void take_dict(ValueId dict, uint64_t index) { convert(dict, PickleKind::Taken, index); }

 private:
  // Deques: growing never copies what is there (a vector's doubling would briefly hold both copies,
  // 1.5x the tree at the peak).
  std::deque<PickleValue> values_;
  std::deque<std::string> strings_;
  std::deque<std::vector<ValueId>> containers_;
  std::vector<ValueId> free_values_;
  std::vector<uint64_t> free_containers_;
};

// Called for every dict appended to a list, once it is complete; returns true when it converted the
// dict and called doc.take_dict (how load_memory_snapshot streams the trace instead of keeping it as a tree).
using AppendHook = std::function<bool(PickleDocument& doc, ValueId dict)>;

// Reads `path` with read(2) in 1 MiB chunks (regular files only: a FIFO or device is refused,
// opened without blocking). Raises RuntimeError "cannot read <path>: <why>" when the file cannot
// be read, ValueError "<path>: not a plain-data pickle: <what> at byte <offset>" for a refused
// opcode, a truncated or malformed file or a limit, and LoadCancelled when progress->cancel is set.
PickleDocument read_pickle_file(const std::string& path, LoadProgress* progress = nullptr,
                                const PickleLimits& limits = {});
// The same into `doc` (which the hook may keep a reference to while reading).
void read_pickle_file_into(PickleDocument& doc, const std::string& path, LoadProgress* progress,
                           const PickleLimits& limits, const AppendHook& hook);
// The same from memory (`name` stands for the path in messages).
PickleDocument read_pickle_bytes(std::string_view data, const std::string& name, const PickleLimits& limits = {});
void read_pickle_bytes_into(PickleDocument& doc, std::string_view data, const std::string& name, const PickleLimits& limits,
                            const AppendHook& hook);

}  // namespace ds::snapshot
