# Shared by the golden programs: the device (CUDA when there is one, else CPU, so the same file runs under a
# real CPU-only PyTorch for the op-level trace) and the figures every program prints at its end.
import torch

dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def start():
    """The measured window starts here (after the model is on the device): memory history from now on."""
    torch.manual_seed(0)
    if dev.type == "cuda":
        torch.cuda.synchronize()
        torch.cuda.reset_peak_memory_stats()
        torch.cuda.memory._record_memory_history(max_entries=1000000)


def finish():
    if dev.type != "cuda":
        return
    torch.cuda.synchronize()
    print("allocated", torch.cuda.memory_allocated())
    print("peak", torch.cuda.max_memory_allocated())
    print("reserved", torch.cuda.memory_reserved())
