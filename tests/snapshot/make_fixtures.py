#!/usr/bin/python3
"""Writes PyTorch memory snapshot fixtures (plain pickle.dump of dicts and lists, the layout
torch.cuda.memory._snapshot() documents) and hostile pickles, for tests/unit/snapshot and the
`devicescope inspect` ctest. No torch needed.

    make_fixtures.py OUT_DIR                 the fixtures below
    make_fixtures.py --large N OUT_FILE      one 2.x snapshot with N trace entries (the benchmark)
    make_fixtures.py --large-real N OUT_FILE the same, shaped like a real run's: every entry has its own
                                             frames list (16-40 frames from a pool of 4096 shared frame
                                             dicts), about 200 bytes an entry (5M entries: ~1 GB)

Fixtures (figures the tests check are in the comments):
  v2_small.pickle   2.x dict form, devices 0 and 1, every trace action, protocol 4.
  v2_proto2.pickle  the same object with pickle protocol 2 (no MEMOIZE/FRAME; BINPUT/BINGET).
  v2_proto0.pickle  the same with protocol 0 (text opcodes).
  v2_unshared.pickle the same with no object shared (a JSON round trip): every frame and string is its
                    own object in the file, so the reader must deduplicate them by content.
  v2_one_device.pickle  device 0 of v2_small alone (the loader hands a lone streamed trace over whole).
  v2_newer.pickle   what later 2.x files carry: private pools, compile_context, user_metadata, annotations,
                    host_segments / host_traces, a C++-only (backward thread) stack, unrounded request sizes.
  v1_list.pickle    1.13's list-of-segments form with block "history".
  hostile_reduce.pickle   a __reduce__ that would create MARKER (os.system touch): must be refused.
  hostile_deep.pickle     a list nested 100000 deep (written by hand: pickle.dump would recurse).
  hostile_huge_len.pickle BINUNICODE8 claiming 2**60 bytes.
  not_snapshot.pickle     a pickled int.
"""
import json
import os
import pickle
import struct
import sys

MiB = 1 << 20
KiB = 1 << 10


def frame(filename, line, name):
    return {"filename": filename, "line": line, "name": name}


# PyTorch shares frame objects; the same dict objects are reused here so the pickle memoizes them.
F_TRAIN = frame("/home/u/train.py", 42, "train_step")
F_MODEL = frame("/home/u/model.py", 17, "forward")
F_LINEAR = frame("/usr/lib/python3/dist-packages/torch/nn/modules/linear.py", 114, "forward")
F_CPP = frame("??", 0, "c10::cuda::CUDACachingAllocator::malloc")
F_OPT = frame("/home/u/train.py", 50, "optimizer_step")

STACK_MODEL = [F_CPP, F_LINEAR, F_MODEL, F_TRAIN]  # innermost first: owner "/home/u/model.py:17 forward"
STACK_OPT = [F_CPP, F_OPT]                         # owner "/home/u/train.py:50 optimizer_step"


def v2_snapshot():
    # Device 0: one 20 MiB large segment: 8 MiB (model), 4 MiB (optimizer, pending free), 8 MiB inactive.
    #           one 2 MiB small segment: 512 KiB (model), rest inactive.
    # Device 1: one 2 MiB small segment, a 1 MiB block (optimizer).
    base0 = 0x7F0000000000
    seg0 = {
        "device": 0, "address": base0, "total_size": 20 * MiB, "allocated_size": 12 * MiB,
        "active_size": 12 * MiB, "requested_size": 12 * MiB - 100, "stream": 0, "segment_type": "large",
        "segment_pool_id": (0, 0), "is_expandable": False, "frames": STACK_MODEL,
        "blocks": [
            {"address": base0, "size": 8 * MiB, "requested_size": 8 * MiB - 100, "state": "active_allocated",
             "frames": list(STACK_MODEL)},
            {"address": base0 + 8 * MiB, "size": 4 * MiB, "requested_size": 4 * MiB,
             "state": "active_pending_free", "frames": list(STACK_OPT)},
            {"address": base0 + 12 * MiB, "size": 8 * MiB, "requested_size": 0, "state": "inactive", "frames": []},
        ],
    }
    base_s = 0x7F0010000000
    seg1 = {
        "device": 0, "address": base_s, "total_size": 2 * MiB, "allocated_size": 512 * KiB,
        "active_size": 512 * KiB, "requested_size": 500 * KiB, "stream": 0, "segment_type": "small",
        "segment_pool_id": (0, 0), "is_expandable": False, "frames": [],
        "blocks": [
            {"address": base_s, "size": 512 * KiB, "requested_size": 500 * KiB, "state": "active_allocated",
             "frames": list(STACK_MODEL)},
            {"address": base_s + 512 * KiB, "size": 2 * MiB - 512 * KiB, "requested_size": 0,
             "state": "inactive", "frames": []},
        ],
    }
    base1 = 0x7E0000000000
    seg2 = {
        "device": 1, "address": base1, "total_size": 2 * MiB, "allocated_size": 1 * MiB,
        "active_size": 1 * MiB, "requested_size": 1 * MiB, "stream": 7, "segment_type": "small",
        "segment_pool_id": (0, 0), "is_expandable": True, "frames": [],
        "blocks": [
            {"address": base1, "size": 1 * MiB, "requested_size": 1 * MiB, "state": "active_allocated",
             "frames": list(STACK_OPT)},
            {"address": base1 + MiB, "size": MiB, "requested_size": 0, "state": "inactive", "frames": []},
        ],
    }

    def entry(action, addr, size, t, frames=(), stream=0, **extra):
        e = {"action": action, "addr": addr, "size": size, "stream": stream, "time_us": t,
             "frames": list(frames), "compile_context": "N/A", "user_metadata": ""}
        e.update(extra)
        return e

    # Device 0's trace, replayed from the state before it (allocated 0, reserved 0) to the snapshot:
    #   reserved: +20 MiB, +2 MiB, +64 MiB, -64 MiB             -> peak 86 MiB at entry 6 (time 1006)
    #   allocated: +8, +4, +0.5, +32 MiB, free 32 MiB, ...      -> peak 44.5 MiB at entry 7 (time 1007)
    # The 4 MiB block is free_requested but not completed: still counted (active_pending_free).
    t0 = [
        entry("segment_alloc", base0, 20 * MiB, 1000, STACK_MODEL),
        entry("alloc", base0, 8 * MiB, 1001, STACK_MODEL),
        entry("alloc", base0 + 8 * MiB, 4 * MiB, 1002, STACK_OPT),
        entry("segment_alloc", base_s, 2 * MiB, 1003, STACK_MODEL),
        entry("alloc", base_s, 512 * KiB, 1004, STACK_MODEL),
        entry("oom", 0, 64 * MiB, 1005, STACK_MODEL, device_free=3 * MiB),
        entry("segment_alloc", 0x7F0100000000, 64 * MiB, 1006, STACK_MODEL),
        entry("alloc", 0x7F0100000000, 32 * MiB, 1007, STACK_MODEL),
        entry("free_requested", 0x7F0100000000, 32 * MiB, 1008, STACK_MODEL),
        entry("free_completed", 0x7F0100000000, 32 * MiB, 1009, STACK_MODEL),
        entry("segment_free", 0x7F0100000000, 64 * MiB, 1010, STACK_MODEL),
        entry("free_requested", base0 + 8 * MiB, 4 * MiB, 1011, STACK_OPT),
        entry("snapshot", 0, 0, 1012),
    ]
    # Device 1 (an expandable segment): map 2 MiB, alloc 1 MiB, map/unmap 2 MiB more.
    #   reserved peak 4 MiB at entry 2; allocated peak 1 MiB at entry 1.
    t1 = [
        entry("segment_map", base1, 2 * MiB, 2000, STACK_OPT, stream=7),
        entry("alloc", base1, 1 * MiB, 2001, STACK_OPT, stream=7),
        entry("segment_map", base1 + 2 * MiB, 2 * MiB, 2002, STACK_OPT, stream=7),
        entry("segment_unmap", base1 + 2 * MiB, 2 * MiB, 2003, STACK_OPT, stream=7),
    ]
    return {
        "segments": [seg0, seg1, seg2],
        "device_traces": [t0, t1],
        "allocator_settings": {"PYTORCH_CUDA_ALLOC_CONF": "expandable_segments:True", "max_split_size": -1,
                               "garbage_collection_threshold": 0.0, "roundup_power2_divisions": {"1": 1}},
    }


def v2_newer_snapshot():
    """What later 2.x files carry beyond v2_small (torch/csrc/cuda/memory_snapshot.cpp, torch/cuda/memory.py):
    a private-pool segment (segment_pool_id (1, 0): a CUDA graph's), trace entries with a compile_context and
    user_metadata (_set_memory_metadata), external_annotations, an allocator_settings with
    roundup_power2_divisions and graph_capture_record_stream_reuse, pinned host memory (record_host=True:
    host_segments / host_traces), and a backward-thread block whose frames are all C++.
    Device 0: one 20 MiB private-pool segment: a 1000-byte request (block 1024 bytes, requested 1000) and a
    2 MiB block from the autograd engine's thread. Host: one 4 MiB pinned segment, a 1 MiB block.
    Trace (device 0): segment_alloc, alloc 1000 (block 1024), alloc 12,000,000 (a 12 MiB segment, too little
    left to split: block 12 MiB), free_requested + free_completed of it, segment_free, alloc 2 MiB (backward).
    Peak allocated: 1024 + 12 MiB at e:4 (max_memory_allocated counts blocks, not requests)."""
    base, big, host = 0x7F2000000000, 0x7F3000000000, 0x10000000
    f_cpp = [frame("??", 0, "torch::unwind::unwind()"), frame("??", 0, "c10::cuda::CUDACachingAllocator::Native::malloc"),
             frame("/pytorch/torch/csrc/autograd/engine.cpp", 1190, "torch::autograd::Engine::thread_main")]
    seg = {"device": 0, "address": base, "total_size": 20 * MiB, "allocated_size": 2 * MiB + 1024,
           "active_size": 2 * MiB + 1024, "requested_size": 2 * MiB + 1000, "stream": 0, "segment_type": "large",
           "segment_pool_id": (1, 0), "is_expandable": False, "frames": list(STACK_MODEL),
           "blocks": [
               {"address": base, "size": 1024, "requested_size": 1000, "state": "active_allocated", "frames": list(STACK_MODEL)},
               {"address": base + 1024, "size": 2 * MiB, "requested_size": 2 * MiB, "state": "active_allocated", "frames": f_cpp},
               {"address": base + 1024 + 2 * MiB, "size": 18 * MiB - 1024, "requested_size": 0, "state": "inactive", "frames": []},
           ]}

    def entry(action, addr, size, t, frames=(), **extra):
        e = {"action": action, "addr": addr, "size": size, "stream": 0, "time_us": t, "frames": list(frames),
             "compile_context": "N/A", "user_metadata": ""}
        e.update(extra)
        return e

    trace = [
        entry("segment_alloc", base, 20 * MiB, 5000, STACK_MODEL),
        entry("alloc", base, 1000, 5001, STACK_MODEL, user_metadata="epoch 1"),
        entry("segment_alloc", big, 12 * MiB, 5002, STACK_MODEL),
        entry("alloc", big, 12000000, 5003, STACK_MODEL, compile_context="[0/0] torch_dynamo_resume_in_forward"),
        entry("free_requested", big, 12000000, 5004, STACK_MODEL),
        entry("free_completed", big, 12000000, 5005, STACK_MODEL),
        entry("segment_free", big, 12 * MiB, 5006, STACK_MODEL),
        entry("alloc", base + 1024, 2 * MiB, 5007, f_cpp),
    ]
    host_seg = {"device": -1, "address": host, "total_size": 4 * MiB, "allocated_size": MiB, "active_size": MiB,
                "requested_size": MiB, "stream": 0, "segment_type": "large", "segment_pool_id": (0, 0),
                "is_expandable": False, "frames": [],
                "blocks": [{"address": host, "size": MiB, "requested_size": MiB, "state": "active_allocated",
                            "frames": list(STACK_OPT)},
                           {"address": host + MiB, "size": 3 * MiB, "requested_size": 0, "state": "inactive", "frames": []}]}
    host_trace = [entry("segment_alloc", host, 4 * MiB, 4999, STACK_OPT), entry("alloc", host, MiB, 5000, STACK_OPT)]
    return {
        "segments": [seg],
        "device_traces": [trace],
        "allocator_settings": {"PYTORCH_CUDA_ALLOC_CONF": "", "max_split_size": -1, "garbage_collection_threshold": 0.0,
                               "expandable_segments": False, "pinned_num_register_threads": 1,
                               "release_lock_on_cudamalloc": False, "pinned_use_cuda_host_register": False,
                               "graph_capture_record_stream_reuse": False,
                               "roundup_power2_divisions": {str(1 << i): 0 for i in range(16)}},
        "external_annotations": [{"stage": "START", "name": "forward", "device": 0, "time_us": 5000}],
        "host_segments": [host_seg],
        "host_traces": host_trace,
    }


def v1_snapshot():
    # 1.13: one segment, blocks with history, no addresses on blocks (they tile the segment).
    return [{
        "device": 0, "address": 0x7F0000000000, "total_size": 4 * MiB, "allocated_size": 3 * MiB,
        "active_size": 3 * MiB, "stream": 0, "segment_type": "large",
        "blocks": [
            {"size": 2 * MiB, "state": "active_allocated",
             "history": [{"addr": 0x7F0000000000, "real_size": 2 * MiB - 8, "frames": list(STACK_MODEL)}]},
            {"size": 1 * MiB, "state": "active_allocated",
             "history": [{"addr": 0x7F0000200000, "real_size": MiB, "frames": list(STACK_OPT)}]},
            {"size": 1 * MiB, "state": "inactive"},
        ],
    }]


class RunsCode:
    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (os.system, ("touch " + self.marker,))


def deep_list_pickle(depth):
    # PROTO 2, then depth x (EMPTY_LIST), then depth-1 x APPEND, STOP: [[[...]]] without recursion.
    return b"\x80\x02" + b"]" * depth + b"a" * (depth - 1) + b"."


def large_snapshot(n):
    """A 2.x snapshot with n trace entries on device 0 (alloc/free_requested/free_completed triples
    over a pool of 64 stacks) and one segment with 1000 blocks."""
    files = ["/home/u/project/module_%d.py" % i for i in range(64)]
    frames = [[frame(files[i], 10 + i, "fn_%d" % i),
               frame("/usr/lib/python3/dist-packages/torch/nn/modules/module.py", 1501, "_call_impl")]
              for i in range(64)]
    blocks = [{"address": 0x7F0000000000 + i * MiB, "size": MiB, "requested_size": MiB,
               "state": "active_allocated" if i % 2 == 0 else "inactive", "frames": frames[i % 64]}
              for i in range(1000)]
    seg = {"device": 0, "address": 0x7F0000000000, "total_size": 1000 * MiB, "allocated_size": 500 * MiB,
           "active_size": 500 * MiB, "requested_size": 500 * MiB, "stream": 0, "segment_type": "large",
           "segment_pool_id": (0, 0), "is_expandable": False, "frames": [], "blocks": blocks}
    trace = []
    actions = ("alloc", "free_requested", "free_completed")
    for i in range(n):
        k = i // 3
        trace.append({"action": actions[i % 3], "addr": 0x7F1000000000 + (k % 4096) * 4096,
                      "size": 4096 * (1 + k % 16), "stream": 0, "time_us": 1_700_000_000_000 + i,
                      "frames": frames[k % 64], "compile_context": "N/A", "user_metadata": ""})
    return {"segments": [seg], "device_traces": [trace], "allocator_settings": {}}


def large_real_snapshot(n):
    """Like large_snapshot, but as PyTorch writes a real run: the allocator captures a new traceback per
    allocation, so each entry has its own frames list (memoized once, never shared) while the frame
    dicts inside are shared (torch symbolizes each distinct frame once). Stack depths 16..40."""
    pool = [frame("/home/u/project/pkg_%d/module_%d.py" % (i % 37, i) if i % 3 else
                  "/usr/lib/python3/dist-packages/torch/nn/modules/module_%d.py" % i, 10 + i % 900, "fn_%d" % i)
            for i in range(4096)]
    blocks = [{"address": 0x7F0000000000 + i * MiB, "size": MiB, "requested_size": MiB,
               "state": "active_allocated" if i % 2 == 0 else "inactive",
               "frames": [pool[(i * 7 + j) % 4096] for j in range(20)]}
              for i in range(1000)]
    seg = {"device": 0, "address": 0x7F0000000000, "total_size": 1000 * MiB, "allocated_size": 500 * MiB,
           "active_size": 500 * MiB, "requested_size": 500 * MiB, "stream": 0, "segment_type": "large",
           "segment_pool_id": (0, 0), "is_expandable": False, "frames": [], "blocks": blocks}
    actions = ("alloc", "free_requested", "free_completed")
    trace = []
    for i in range(n):
        k = i // 3
        depth = 16 + (k * 2654435761) % 25
        base = (k * 40503) % 4096
        trace.append({"action": actions[i % 3], "addr": 0x7F1000000000 + (k % 4096) * 4096,
                      "size": 4096 * (1 + k % 16), "stream": 0, "time_us": 1_700_000_000_000 + i,
                      "frames": [pool[(base + j * 97) % 4096] for j in range(depth)],
                      "compile_context": "N/A", "user_metadata": ""})
    return {"segments": [seg], "device_traces": [trace], "allocator_settings": {}}


def main():
    if len(sys.argv) == 4 and sys.argv[1] in ("--large", "--large-real"):
        make = large_snapshot if sys.argv[1] == "--large" else large_real_snapshot
        with open(sys.argv[3], "wb") as f:
            pickle.dump(make(int(sys.argv[2])), f, protocol=4)
        return
    if len(sys.argv) != 2 or sys.argv[1].startswith("-"):
        # an option it does not know (--help) must not become a fixtures folder named after it
        print(__doc__, file=sys.stdout if sys.argv[1:] in (["--help"], ["-h"]) else sys.stderr)
        return 0 if sys.argv[1:] in (["--help"], ["-h"]) else 2
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    snap = v2_snapshot()
    for name, proto in (("v2_small.pickle", 4), ("v2_proto2.pickle", 2), ("v2_proto0.pickle", 0)):
        with open(os.path.join(out, name), "wb") as f:
            pickle.dump(snap, f, protocol=proto)
    with open(os.path.join(out, "v2_unshared.pickle"), "wb") as f:
        pickle.dump(json.loads(json.dumps(snap)), f, protocol=4)
    one = dict(snap, segments=[g for g in snap["segments"] if g["device"] == 0], device_traces=snap["device_traces"][:1])
    with open(os.path.join(out, "v2_one_device.pickle"), "wb") as f:
        pickle.dump(one, f, protocol=4)
    with open(os.path.join(out, "v2_newer.pickle"), "wb") as f:
        pickle.dump(v2_newer_snapshot(), f, protocol=4)
    with open(os.path.join(out, "v1_list.pickle"), "wb") as f:
        pickle.dump(v1_snapshot(), f, protocol=2)
    marker = os.path.join(out, "MARKER_reduce_ran")
    with open(os.path.join(out, "hostile_reduce.pickle"), "wb") as f:
        pickle.dump({"segments": [], "device_traces": [[RunsCode(marker)]]}, f, protocol=4)
    with open(os.path.join(out, "hostile_deep.pickle"), "wb") as f:
        f.write(deep_list_pickle(100000))
    with open(os.path.join(out, "hostile_huge_len.pickle"), "wb") as f:
        f.write(b"\x80\x04\x8d" + struct.pack("<Q", 1 << 60) + b"abc.")
    with open(os.path.join(out, "not_snapshot.pickle"), "wb") as f:
        pickle.dump(12345, f, protocol=4)


if __name__ == "__main__":
    sys.exit(main())
