# %% lesson: Tied weights survive the move - tied storage does not
# | Language models often *tie* the input embedding and the output projection: one weight matrix used twice.
# | Tie them by sharing one Parameter object and `model.to(device)` keeps them tied, moving the matrix once.
# | Tie them by sharing *storage* between two Parameters (via `.data`) and the move silently unties them.
# requires: torch.cuda.is_available()
# verdict: FALSE | Moving a model with tied weights copies the shared matrix twice | `_apply` converts each Parameter once, however many modules register it | One Parameter, two owners
# verdict: TRUE | Parameters that share storage through `.data` are still shared after `model.to(device)` | Each Parameter is copied separately: two independent CUDA copies | Shared storage is not a tie
# verdict: TRUE | `parameters()` lists a tied weight once, `state_dict()` under both names | `parameters()` deduplicates by identity; `state_dict()` lists every registered name | One Parameter, two owners

# %% step: One Parameter, two owners
# | A tiny language-model head: the Linear's weight *is* the Embedding's weight.
# ? How many bytes does the GPU allocate when this model moves (100 x 16 float32 = 6400 bytes per copy)?
# - 12800 - one copy per module
# = 6656 - one copy, rounded up to a multiple of 512 bytes
# - 0 - tied weights stay on the CPU
import torch
import torch.nn as nn

emb = nn.Embedding(100, 16)
head = nn.Linear(16, 100, bias=False)
head.weight = emb.weight
model = nn.ModuleDict({"emb": emb, "head": head})

before = torch.cuda.memory_allocated()
model.to("cuda")
print(torch.cuda.memory_allocated() - before)
print(head.weight is emb.weight, head.weight.device)
print(len(list(model.parameters())), list(model.state_dict().keys()))
# expect-stdout: 6656
# expect-stdout: True cuda:0
# expect-stdout: 1 ['emb.weight', 'head.weight']
# > `Module._apply` walks the modules and converts each parameter with `param.data = fn(param)`. The second time
# > it meets the same Parameter (through `head`) it is already on the device and nothing happens. The tie holds,
# > and one CUDA block (6400 bytes rounded up to 6656) holds the matrix.

# %% step: Training keeps them tied
tokens = torch.tensor([1, 2, 3], device="cuda")
logits = model["head"](model["emb"](tokens))
logits.sum().backward()
print(emb.weight.grad is head.weight.grad, tuple(emb.weight.grad.shape))
# expect-stdout: True (100, 16)
# > One Parameter, one `.grad` that accumulates the gradient of both uses.

# %% step: Shared storage is not a tie
# | A different "tie": two Parameters made to share storage by assigning `.data`.
# ? Do `a.weight` and `b.weight` still share memory after `pair.to("cuda")`?
# - yes - they shared storage before the move
# = no - each Parameter was copied to the GPU on its own
a = nn.Linear(4, 4, bias=False)
b = nn.Linear(4, 4, bias=False)
b.weight.data = a.weight.data
print(a.weight is b.weight, a.weight.data_ptr() == b.weight.data_ptr())
pair = nn.Sequential(a, b).to("cuda")
print(a.weight.data_ptr() == b.weight.data_ptr())
with torch.no_grad():
    a.weight.fill_(1.0)
print(bool((b.weight == 1.0).all()))
# expect-stdout: False True
# expect-stdout: False
# expect-stdout: False
# > Two Parameter objects are two separate entries for `_apply`: each gets its own copy (`fn(param)` knows nothing
# > about storage shared with another tensor). After the move an update to one no longer shows in the other.
# > Tie weights by assigning the Parameter itself (`b.weight = a.weight`), never by sharing `.data`.

# %% step: deepcopy keeps the tie too
import copy
clone = copy.deepcopy(model)
print(clone["head"].weight is clone["emb"].weight, clone["head"].weight is emb.weight, clone["emb"].weight.device)
# expect-stdout: True False cuda:0
# > `copy.deepcopy` copies each object once (its memo), so the copy has its own single shared weight, on the
# > same device as the original.
