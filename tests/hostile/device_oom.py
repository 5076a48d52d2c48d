# hostile: filling a 1 GiB simulated GPU with 256 MiB blocks: torch.cuda.OutOfMemoryError, then recovery
# args: --sim-memory 1GiB
# expect-exit: 1
# expect-stderr: torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate
# expect-stdout: full after 4 blocks
# expect-stdout: freed: 0
import torch

blocks = []
try:
    while True:
        blocks.append(torch.empty(64 * 2**20, dtype=torch.float32, device="cuda"))  # 256 MiB each
except torch.cuda.OutOfMemoryError:
    print(f"full after {len(blocks)} blocks")
blocks.clear()
print("freed:", torch.cuda.memory_allocated())
keep = [torch.empty(2**30, dtype=torch.uint8, device="cuda:0") for _ in range(2)]
