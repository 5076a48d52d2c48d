#!/usr/bin/python3
"""Builds the golden references tests/goldens/derived/PROGRAM.json: what real PyTorch 2.x allocates on a CUDA
device of architecture sm_90 for each program, DERIVED (not captured: no GPU was available when they were made).

Usage: make_goldens.py [--out DIR] [--check] [PROGRAM ...]
    (default: every programs/*.py into derived/; needs a real PyTorch: /usr/bin/python3). --check rebuilds into a
    temporary folder and fails when a committed golden differs from what the reference gives now.

How: trace_real_ops.py runs the program under Debian's real PyTorch (CPU) and lists every tensor storage its ATen
ops make and free; the CUDA 2.x differences are then applied, each from PyTorch's source:
- blocks round up to 512 bytes (CUDACachingAllocator.cpp round_size); trace entries keep the requested size;
- CPU-only tensors leave the sequence: optimizer step counters (`torch.tensor(0.)`, CPU unless capturable) and
  1.13's profiler handles (4-byte `zeros`);
- cuBLAS workspaces (aten/src/ATen/cuda/CublasHandlePool.cpp, sm_90): 32 MiB at the first matmul of each thread
  (the forward's, and the autograd engine's device thread in backward), after the op's output; an addmm with a
  bias (the cuBLASLt gemm_and_bias path) allocates the 1 MiB cuBLASLt workspace for the call and frees it on
  return, as 2.6 does (later releases keep one per handle: an H200 with 2.11 showed 32 + 1 MiB held from the
  first forward matmul and 32 MiB from backward, issue 21);
- CUDA dropout is one fused kernel (Dropout.cu dropout_cuda): a bool mask (one byte per element), then the output,
  where the CPU makes a float noise tensor;
- zero_grad() sets gradients to None (2.x's default);
- linear with a bias on a >2-d input that cannot be flattened (matmul's path) adds the bias in place in 2.x
  (1.13: output + bias); the trace marks that add like an accumulation;
- autograd's InputBuffer adds a gradient in place into one it solely holds (2.x's can_accumulate_inplace; 1.13
  allocates old + new): the trace marks such adds (trace_real_ops.py accumulation()) and the sum keeps the old
  gradient's block;
- a reduced mse_loss makes its elementwise loss as a temporary after the result (Loss.cpp mse_loss_out);
- CUDA softmax backward computes `tmp = grad * output` after grad_input, freed on return (SoftMax.cu); (the
  kernels' input.contiguous() of a strided input is not derived: the op trace does not say which inputs were);
- Adam and AdamW take the foreach path on CUDA (torch/optim/adam.py, adamw.py _multi_tensor_*): state made per
  parameter (exp_avg, exp_avg_sq), Adam's weight decay as one _foreach_add list, then one _foreach_sqrt list of
  the exp_avg_sq shapes, freed when the step returns; everything else in place. SGD's foreach path allocates what
  the CPU's single-tensor path does (momentum buffers by clone on the first step).
- attention (programs that use MultiheadAttention or scaled_dot_product_attention): attention_2x.py runs 2.x's
  Python path on the reference and models the memory-efficient kernel's allocations from attention.cu (the same
  reading as DeviceScope's nn/_sdpa_fused.py: those buffers are not independent evidence; the goldens say so in
  "modelled");
Programs whose CUDA kernels cannot be derived this way are written with status "partial" and the reason; their
figures are DeviceScope-independent but not a CUDA reference, and the comparison test reports them without
holding them to the targets.
"""
import glob
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from caching_allocator_model import CachingAllocatorModel, round_size  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
MiB = 1 << 20
CUBLAS_WORKSPACE = 32 * MiB   # sm_90: 4096 * 8 * 1024 bytes (getChosenWorkspaceSize)
CUBLASLT_WORKSPACE = 1 * MiB  # CUBLASLT_WORKSPACE_SIZE default 1024 KiB
MATMUL_OPS = {"mm", "addmm", "bmm", "baddbmm", "addbmm", "addmv", "mv", "dot"}
CPU_ONLY_OPS = {"lift_fresh", "scalar_tensor"}

PARTIAL = {
    "cnn_batchnorm": "cuDNN convolution workspaces and cudnn_batch_norm's reserve space depend on the algorithm "
                     "cuDNN picks on the GPU; the op-level tensors are derived, the kernels' private buffers are not",
    "resnet_block": "cuDNN convolution workspaces depend on the algorithm cuDNN picks on the GPU",
    "lstm": "CUDA runs the whole LSTM as one cuDNN kernel (flattened weights, reserve space, workspace); the CPU "
            "trace has one op per time step",
    "gru": "CUDA runs the whole GRU as one cuDNN kernel (reserve space, workspace); the CPU trace has one op per "
           "time step",
    "autocast_gradscaler": "CPU autocast is bfloat16 and GradScaler is disabled on the CPU; CUDA's float16 casts "
                           "and scaler state differ",
}


ATTENTION = {"transformer_encoder", "gpt_block_sdpa", "transformer_2block_adam"}


def adam_foreach(begin, out):
    """_multi_tensor_adam / _multi_tensor_adamw's device allocations for one step."""
    adamw = begin["optimizer"] == "AdamW"
    for group, sizes in zip(begin["groups"], begin["param_bytes"]):
        if begin["first"]:
            for s in sizes:
                out.append(("alloc", s, "exp_avg"))
                out.append(("alloc", s, "exp_avg_sq"))
        temps = []
        if group.get("weight_decay") and not adamw:
            for s in sizes:  # device_grads = torch._foreach_add(device_grads, device_params, alpha=weight_decay)
                temps.append(len(out))
                out.append(("alloc", s, "_foreach_add (weight decay)"))
            for i in reversed(temps):  # del device_grads after the exp_avg_sq update (CPython frees a list's items last first)
                out.append(("free", i))
            temps = []
        for s in sizes:  # exp_avg_sq_sqrt = torch._foreach_sqrt(device_exp_avg_sqs)
            temps.append(len(out))
            out.append(("alloc", s, "_foreach_sqrt"))
        for i in reversed(temps):  # the list dies when the step returns
            out.append(("free", i))


def derive(trace):
    """The CUDA 2.x event list [("alloc", size, what) | ("free", index of the alloc)] for a CPU op trace."""
    out = []
    where = {}            # trace alloc id -> index in out (None: dropped)
    regions = []          # open begin markers
    threads_with_blas = set()
    absorbed = set()      # gradients 2.x accumulated in place: their 1.13 free is not a free
    skip_region = 0
    for e in trace["events"]:
        action = e["action"]
        if action == "begin":
            regions.append(e)
            if e["what"] == "optimizer_step" and e["optimizer"] in ("Adam", "AdamW"):
                adam_foreach(e, out)
                skip_region += 1
            continue
        if action == "end":
            begin = regions.pop()
            if begin["what"] == "optimizer_step" and begin["optimizer"] in ("Adam", "AdamW"):
                skip_region -= 1
            continue
        in_backward = any(r["what"] == "backward" for r in regions)
        in_dropout = next((r for r in regions if r["what"] == "dropout"), None)
        if action == "free":
            if e["id"] in absorbed:
                absorbed.discard(e["id"])  # 1.13 freed the old gradient; 2.x kept adding into it
                continue
            i = where.pop(e["id"], None)
            if i is not None:
                out.append(("free", i))
            continue
        if "accumulates_into" in e and e["accumulates_into"] in where and e["accumulates_into"] not in absorbed:
            # autograd's InputBuffer: 2.x adds the next gradient in place into the one it solely holds (no
            # allocation); the sum lives on in the old gradient's block
            old = e["accumulates_into"]
            where[e["id"]] = where[old]
            absorbed.add(old)
            continue
        if skip_region or e["op"] in CPU_ONLY_OPS or (e["op"] == "zeros" and e["size"] == 4):
            where[e["id"]] = None
            continue
        thread = "autograd" if in_backward else "main"
        size = e["size"]
        what = e["op"]
        if in_dropout and in_dropout["training"] and not in_dropout["inplace"] and e["op"] == "empty_like":
            size, what = size // e["elem"], "dropout mask (bool)"
        where[e["id"]] = len(out)
        out.append(("alloc", size, what))
        if e["op"] in MATMUL_OPS:
            # the kernel's output exists first (structured ops allocate it before the impl runs); the BLAS call
            # then fetches the thread's handle, whose workspace is made once; an addmm with a bias takes the
            # cuBLASLt path (gemm_and_bias), which in 2.6 allocates its workspace per call and frees it on return
            if thread not in threads_with_blas:
                threads_with_blas.add(thread)
                out.append(("alloc", CUBLAS_WORKSPACE, f"cuBLAS workspace ({thread} thread)"))
            if e["op"] == "addmm":
                out.append(("alloc", CUBLASLT_WORKSPACE, f"cuBLASLt workspace ({thread} thread, per call)"))
                out.append(("free", len(out) - 1))
        if e["op"] == "mse_loss" and e["size"] > e["elem"]:
            # mse_loss_out: after result (input-sized, resized to 0-dim) the TensorIterator makes the elementwise
            # loss, a temporary freed once mean_out / sum_out has reduced it (Loss.cpp; internal, so the op
            # trace does not show it)
            out.append(("alloc", size, "mse_loss elementwise temporary"))
            out.append(("free", len(out) - 1))
        if e["op"] == "_softmax_backward_data":
            # softmax_backward_cuda_out: `tmp = grad * output` after grad_input, freed on return (SoftMax.cu; the
            # CPU kernel has no such temporary)
            out.append(("alloc", size, "softmax backward grad * output temporary"))
            out.append(("free", len(out) - 1))
    return out


def figures(baseline, events):
    model = CachingAllocatorModel()
    for s in baseline:
        model.malloc(s)
    model.peak_allocated = model.allocated  # the window starts after reset_peak_memory_stats()
    blocks = {}
    sizes = []
    for i, ev in enumerate(events):
        if ev[0] == "alloc":
            blocks[i] = model.malloc(ev[1])
            sizes.append(ev[1])  # trace entries keep the requested size (the allocator rounds the block)
        else:
            model.free(blocks.pop(ev[1]))
    return {"allocated": model.allocated, "peak": model.peak_allocated, "reserved": model.reserved,
            "segments": model.segments, "alloc_count": len(sizes), "alloc_sizes": sizes}


def build(program):
    name = os.path.splitext(os.path.basename(program))[0]
    run = subprocess.run(["/usr/bin/python3", os.path.join(HERE, "trace_real_ops.py"), program],
                         capture_output=True, text=True)
    if run.returncode != 0:  # the program needs a newer PyTorch than the CPU reference
        last = (run.stderr.strip().splitlines() or ["?"])[-1]
        return name, {"program": name + ".py", "status": "pending capture",
                      "reason": PARTIAL.get(name, "") + f"; it does not run under the CPU reference ({last})"}
    trace = json.loads(run.stdout)
    events = derive(trace)
    golden = {"program": name + ".py", "status": "partial" if name in PARTIAL else "derived, not captured",
              "reason": PARTIAL.get(name, ""), "architecture": "sm_90", "reference_torch": "2.6 (CUDA), derived",
              "trace_torch": trace["torch"] + " (CPU)",
              "baseline_sizes": [round_size(s) for s in trace["baseline_bytes"]]}
    if any(e["action"] == "alloc" and e["op"] == "empty" for e in trace["events"]) and name in ATTENTION:
        golden["modelled"] = "memory-efficient attention's out/logsumexp/grad chunk/delta, from attention.cu"
    golden.update(figures(golden["baseline_sizes"], events))
    golden["events"] = [list(ev) for ev in events]
    return name, golden


def main():
    args = sys.argv[1:]
    check = "--check" in args
    args = [a for a in args if a != "--check"]
    out_dir = os.path.join(HERE, "derived")
    if "--out" in args:
        i = args.index("--out")
        out_dir = args[i + 1]
        del args[i:i + 2]
    programs = args or sorted(p for p in glob.glob(os.path.join(HERE, "programs", "*.py"))
                              if not os.path.basename(p).startswith("_"))
    stale = []
    os.makedirs(out_dir, exist_ok=True)
    for program in programs:
        name, golden = build(program)
        text = json.dumps(golden, indent=None, separators=(",", ":")) + "\n"
        if check:
            committed = os.path.join(HERE, "derived", name + ".json")
            if not os.path.exists(committed) or open(committed).read() != text:
                stale.append(name)
        else:
            with open(os.path.join(out_dir, name + ".json"), "w") as f:
                f.write(text)
        if "allocated" not in golden:
            print(f"{name:28s} {golden['status']}: {golden['reason']}")
            continue
        print(f"{name:28s} {golden['status']:22s} allocated {golden['allocated']:>11,} peak {golden['peak']:>11,} "
              f"reserved {golden['reserved']:>11,} allocs {golden['alloc_count']:>5} segments {golden['segments']}")
    if check:
        for name in stale:
            print(f"FAIL {name}: derived/{name}.json differs from what the reference gives now (rerun make_goldens.py)")
        print(f"{len(programs) - len(stale)} passed, {len(stale)} failed")
        return 1 if stale else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
