# hostile: simulated GPUs of 64 TiB each on a host with far less RAM: allocations past the host's memory are an OutOfMemoryError saying simulated device memory is host memory (never the kernel's OOM killer), then recovery
# args: --sim-memory 64TiB
# expect-exit: 1
# expect-stdout: one tensor larger than RAM: OutOfMemoryError, explained: True
# expect-stdout: chunks that fit one by one: OutOfMemoryError, explained: True
# expect-stdout: pinned larger than RAM: RuntimeError, explained: True
# expect-stdout: virtual tensors past RAM: fine
# expect-stdout: after: [2.0, 2.0]
# expect-stderr: torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate
# expect-stderr: simulated device memory is host memory
# expect-transfers: 2
# Nothing here touches the memory it asks for (torch.empty), so the script is harmless even where the
# allocations are wrongly granted: it then prints something else and the test fails on stdout instead.
import os

import devicescope
import torch

RAM = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
EXPLAINED = "simulated device memory is host memory"


def attempt(what, make):
    try:
        held = make()
        print(f"{what}: granted ({len(held) if isinstance(held, list) else 1} allocations)")
        return held
    except RuntimeError as e:
        print(f"{what}: {type(e).__name__}, explained: {EXPLAINED in str(e)}")


attempt("one tensor larger than RAM", lambda: torch.empty(RAM + 2**30, dtype=torch.uint8, device="cuda"))


def chunks():
    held = []
    for i in range(64):  # an eighth of RAM each, alternating devices: the host's RAM is one budget
        held.append(torch.empty(RAM // 8, dtype=torch.uint8, device=f"cuda:{i % 2}"))
    return held


attempt("chunks that fit one by one", chunks)
attempt("pinned larger than RAM", lambda: torch.empty(RAM + 2**30, dtype=torch.uint8, pin_memory=True))
with devicescope.virtual_mode():
    v = [torch.empty(RAM, dtype=torch.uint8, device="cuda") for _ in range(4)]
print("virtual tensors past RAM:", "fine" if all(t.is_virtual for t in v) else "not virtual")
x = torch.ones(2).to("cuda")
print("after:", (x * 2).cpu().tolist())
torch.empty(2 * RAM, dtype=torch.uint8, device="cuda:1")  # uncaught: exit 1 with the error
