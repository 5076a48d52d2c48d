# Per-parameter optimizer state made at the first step (or at construction, for Adagrad), on the
# parameter's device at that moment, each tensor tagged `optimizer_state` for DeviceScope's memory views.
import torch


def new_step():
    """PyTorch 2.x keeps `step` as a float32 scalar tensor on the CPU (not capturable)."""
    return torch.tensor(0.0, dtype=torch.float32)


def create(optimizer, p, entries):
    """Fills optimizer.state[p] from {key: tensor} in order and tags every tensor; returns the state."""
    state = optimizer.state[p]
    for key, value in entries.items():
        state[key] = value
        if isinstance(value, torch.Tensor):
            optimizer._tag_state(p, key, value)
    return state


def run_closure(closure):
    if closure is None:
        return None
    with torch.enable_grad():
        return closure()


def grad_of(p, maximize):
    return -p.grad if maximize else p.grad
