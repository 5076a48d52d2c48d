# %% lesson: `m = model.to(device)`: one model, two names
# | A Q&A post (seed 001, "pytorch tensor.to") answers: after `m = model.to(device)`, can I still train with
# | `model`? Its answer - yes, `m` and `model` are the same model - is right. We check it, run its training
# | loop, and look closely at its explanation of `.to("cuda")` and `.cuda()`, which is right in spirit but
# | says "the first available GPU" where PyTorch means "the *current* CUDA device".
# |
# | The post's code uses `BigramLanguageModel`, `device`, `num_epochs` and `dataloader` without defining
# | them; the first step defines small stand-ins (a bigram model as in Karpathy's nanoGPT lecture).
# seed: 001_470d988d4b46d249.txt
# requires: torch.cuda.device_count() >= 2
# verdict: TRUE | `m = model.to(device)` does not create a new model: `m` and `model` are the same model | `Module.to` returns `self` | The question's code
# verdict: TRUE | You can keep training with `model` after `m = model.to(device)` | Both names reach the same Parameters; an update through one is visible through the other | Train through `m`, look through `model`
# verdict: TRUE | The training loop works once inputs and targets are moved to the model's device | Parameters, activations, gradients and Adam state all live on cuda:0 | The answer's training loop, as written
# verdict: TRUE | `.cuda()` is a shorthand for `.to("cuda")` | Both resolve "cuda" to the current device and both return `self` when the tensor is already there | `.cuda()` and `.to("cuda")` are the same move
# verdict: HALF-TRUE | `tensor.to("cuda")` / `tensor.cuda()` move the tensor "to the first available GPU" | They move a *copy* to the *current* CUDA device: cuda:0 unless `torch.cuda.set_device` or `with torch.cuda.device(i)` changed it | "cuda" means the current device
# verdict: FALSE | The snippet `tensor.to("cuda")` moves `tensor` | As a bare statement it changes nothing: `Tensor.to` returns a new tensor, which is discarded | The `.to()` snippets as written

# %% step: Stand-ins for what the post leaves undefined
# | A one-layer bigram model (an embedding whose rows are next-token logits), a tiny token dataset, and the
# | `device` line every nanoGPT script starts with.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

device = 'cuda' if torch.cuda.is_available() else 'cpu'
num_epochs = 2
vocab_size = 65


class BigramLanguageModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.token_embedding_table = nn.Embedding(vocab_size, vocab_size)

    def forward(self, idx):
        return self.token_embedding_table(idx)  # (B, vocab_size) logits


tokens = torch.randint(0, vocab_size, (65,))
dataloader = DataLoader(TensorDataset(tokens[:-1], tokens[1:]), batch_size=16)
# expect: len(dataloader) == 4
# expect: device == "cuda"

# %% step: The question's code
# | The two lines from the question.
# ? What is `m is model` after these two lines?
# = True
# - False - `m` is the copy on the GPU, `model` stays on the CPU
# - False - but both are on the GPU
model = BigramLanguageModel()
m = model.to(device)
# expect: m is model
# expect: str(model.token_embedding_table.weight.device) == "cuda:0"
# > `Module.to` converts the module's parameters in place (buffers are replaced) and returns `self`, so `m` is just a second
# > name for `model`. (Note that `device` is the string `'cuda'`: the parameters go to the current CUDA device,
# > `cuda:0`.)

# %% step: Train through `m`, look through `model`
# | One SGD step through the name `m`; then we look at the weights through the name `model`.
before = model.token_embedding_table.weight.detach().clone()
sgd = torch.optim.SGD(m.parameters(), lr=0.5)
loss = nn.functional.cross_entropy(m(torch.tensor([1, 2], device=device)), torch.tensor([2, 3], device=device))
loss.backward()
sgd.step()
changed = not torch.equal(before, model.token_embedding_table.weight.detach())
print(changed, before.device, loss.device)
# expect-stdout: True cuda:0 cuda:0
# expect: m.token_embedding_table.weight is model.token_embedding_table.weight
# > One set of Parameters, reachable through two names. The optimizer holds references to those same
# > Parameter objects, so whichever name you use for the forward pass, `optimizer.step()` updates the model.

# %% step: The answer's training loop, as written
# | The answer's example, verbatim (it builds a fresh `model`).
# ? Where does Adam keep its running averages (`exp_avg`) for the embedding weight?
# - on the CPU, where the optimizer was created
# = on cuda:0, next to the parameter
# - nowhere until `.cuda()` is called on the optimizer
model = BigramLanguageModel()
model = model.to(device)  # move model to device

# define loss function and optimizer
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters())

# training loop
for epoch in range(num_epochs):
    for i, (inputs, targets) in enumerate(dataloader):
        inputs, targets = inputs.to(device), targets.to(device)

        # forward pass
        outputs = model(inputs)
        loss = criterion(outputs, targets)

        # backward pass and optimization
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
# expect: str(outputs.device) == "cuda:0" and str(loss.device) == "cuda:0"
# expect: str(model.token_embedding_table.weight.grad.device) == "cuda:0"
# expect: str(optimizer.state[model.token_embedding_table.weight]["exp_avg"].device) == "cuda:0"
# expect: optimizer.state[model.token_embedding_table.weight]["step"].item() == num_epochs * len(dataloader)
# expect: str(inputs.device) == "cuda:0" and str(tokens.device) == "cpu"
# > Adam creates its state lazily, at the first `step()`, with `torch.zeros_like(param)` - so it lands on the
# > parameter's device. (`state["step"]` is the exception: a CPU scalar tensor unless `capturable`/`fused`.)
# > `inputs, targets = inputs.to(device), targets.to(device)` rebinds the loop variables to CUDA copies; the
# > dataset's tensors stay on the CPU.

# %% step: The `.to()` snippets as written
# | The post's examples for `.to()`. They need a `tensor`; the last line is added by the lesson.
# ? Where is `tensor` after these two lines?
# = cpu
# - cuda:1 - the last move wins
# - cuda:0
tensor = torch.randn(4)
tensor.to("cuda")  # Move tensor to the first available GPU (if available)
tensor.to(torch.device("cuda:1"))  # Move tensor to the second GPU (if available)
print(tensor.device)  # (added by the lesson)
# expect-stdout: cpu
# > Both lines create a CUDA copy and throw it away: `Tensor.to` is out of place. The post means
# > `tensor = tensor.to("cuda")`. (In DeviceScope's memory view the two copies appear and vanish at once.)

# %% step: `.cuda()` and `.to("cuda")` are the same move
# | The post: "`.cuda()` ... is a shorthand for `.to("cuda")`". Its one-line example first (a bare statement
# | again), then the comparison.
tensor.cuda()  # Move tensor to the first available GPU (if available)
a = tensor.cuda()
b = tensor.to("cuda")
print(a.device, b.device, a is b)
print(a.cuda() is a, a.to("cuda") is a, a.to("cuda:0") is a)
# expect-stdout: cuda:0 cuda:0 False
# expect-stdout: True True True
# > Each call makes its own copy (`a is b` is False). On a tensor that is already on the current device both
# > return the tensor itself - no copy. Without a usable GPU both raise (`AssertionError: Torch not compiled
# > with CUDA enabled` on CPU-only builds, `RuntimeError: No CUDA GPUs are available` on CUDA builds; start
# > DeviceScope with `--sim-devices 0` to see it).

# %% step: "cuda" means the current device
# | The post says `tensor.cuda()` moves to "the first available GPU". Change the current device and see.
# ? Inside `with torch.cuda.device(1):`, where does `tensor.cuda()` put the copy?
# - cuda:0 - the first available GPU
# = cuda:1 - the current device
# - it raises: the tensor is on the CPU
with torch.cuda.device(1):
    c = tensor.cuda()
    d = tensor.to("cuda")
print(c.device, d.device, torch.cuda.current_device())
# expect-stdout: cuda:1 cuda:1 0
# > An index-less `"cuda"` (and `.cuda()` without an argument) is resolved to `torch.cuda.current_device()` at
# > the moment of the move. It is `cuda:0` by default, which is why "the first GPU" is usually what you see.
