# source: https://pytorch.org/docs/stable/notes/randomness.html (Reproducibility) and the random-state calls
#         of https://pytorch.org/docs/stable/random.html (torch.get_rng_state / set_rng_state)
# changed: the note's snippets assembled into one run with a small Dataset; checks at the end (the same seed
#          gives the same numbers, the saved RNG state replays them, seeded DataLoader workers shuffle alike).
# reference: real
import random

import numpy as np
import torch
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
random.seed(0)
np.random.seed(0)
a = torch.rand(3)
torch.manual_seed(0)
b = torch.rand(3)

state = torch.get_rng_state()
c = torch.randn(4)
torch.set_rng_state(state)
d = torch.randn(4)

if torch.cuda.is_available():
    torch.cuda.manual_seed_all(0)
    g0 = torch.rand(2, device="cuda")
    torch.cuda.manual_seed_all(0)
    g1 = torch.rand(2, device="cuda")
    cuda_same = torch.equal(g0, g1)
else:
    cuda_same = True

torch.use_deterministic_algorithms(True)
torch.backends.cudnn.benchmark = False


def seed_worker(worker_id):
    worker_seed = torch.initial_seed() % 2**32
    np.random.seed(worker_seed)
    random.seed(worker_seed)


def order(seed):
    g = torch.Generator()
    g.manual_seed(seed)
    loader = DataLoader(TensorDataset(torch.arange(20)), batch_size=5, shuffle=True, num_workers=0,
                        worker_init_fn=seed_worker, generator=g)
    return [batch[0].tolist() for batch in loader]


first, second, other = order(0), order(0), order(1)
print(first)
torch.use_deterministic_algorithms(False)

# Checks of what it computed.
assert torch.equal(a, b) and torch.equal(c, d) and cuda_same
assert first == second and first != other and sorted(sum(first, [])) == list(range(20))
assert state.dtype == torch.uint8 and state.dim() == 1
print("checks passed")
