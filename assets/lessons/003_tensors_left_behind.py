# %% lesson: Why aren't all tensors moved? Tensors, submodules, CPU inputs and `split`
# | An article (seed 003, "Why aren't all tensors being moved to the desired device using .to(device)?")
# | mixes true statements about tensors with false ones about modules. True: `Tensor.to` returns a new tensor
# | and leaves the original alone; `torch.split` results stay on the input's device. False: that `parent.to()`
# | does not recurse into submodules, and that a CUDA model fed a CPU input "typically" returns its output on
# | the CPU - its own example raises an error instead.
# seed: 003_7824067b18f9ca0f.txt
# requires: torch.cuda.is_available()
# verdict: TRUE | `Tensor.to(device)` returns a new tensor and leaves the original unchanged | Out of place; the one exception: it returns the tensor itself when nothing would change | `Tensor.to` is out of place
# verdict: FALSE | Calling `.to(device)` on a parent module does not recursively move its submodules' parameters | `_apply` recurses into every registered child at any depth (ModuleList and ModuleDict included) | `parent.to()` recurses
# verdict: FALSE | A CUDA model fed a CPU input "typically" returns the output on the CPU | The matmul raises RuntimeError; PyTorch never silently computes on the CPU | The first example as written
# verdict: TRUE | Moving the input as well makes the computation and the output CUDA | All operands on cuda:0, so the result is allocated there | The revised example as written
# verdict: TRUE | `torch.split` returns tensors on the device of the tensor they were split from | They are views into the input's storage | `torch.split` as written
# verdict: TRUE | Tensors inside lists and dicts need a recursive helper to be moved | `.to()` exists on tensors and modules only; containers are plain Python objects | The recursive helper as written
# verdict: FALSE | "the `.to()` method creates copies rather than applying in place" (said of models) | For modules `to()` is in place and returns `self`; only `Tensor.to` copies | `parent.to()` recurses

# %% step: `Tensor.to` is out of place
# | The article: "`.to(device)` ... return[s] a *new* tensor on the specified device, rather than modifying the
# | tensor in-place."
# ? What does the last line print?
# - False - `to` always returns a new tensor
# = True - nothing needed to change, so `to` returned the tensor itself
# - it raises: the tensor is already on the device
import torch
import torch.nn as nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
my_tensor = torch.randn(3)
moved = my_tensor.to(device)
print(my_tensor.device, moved.device, moved is my_tensor)
print(moved.to(device) is moved)
# expect-stdout: cpu cuda:0 False
# expect-stdout: True
# > True for tensors: `my_tensor` stays on the CPU, `moved` is a new tensor with new CUDA storage. When nothing
# > would change (same device - `"cuda"` resolved to the current device - and same dtype), `to` returns `self`:
# > no copy, no new object.

# %% step: `parent.to()` recurses
# | The article: "calling `.to(device)` on a parent module *does not recursively* transfer all submodules'
# | parameters." Here is a parent with a nested block, a `ModuleList`, a `ModuleDict` - and, for contrast, a
# | layer kept in a plain Python list.
class CustomLinear(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(out_features, in_features))
        self.bias = nn.Parameter(torch.randn(out_features))

    def forward(self, x):
        return torch.matmul(x, self.weight.T) + self.bias


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.inner = nn.Sequential(CustomLinear(10, 5), nn.ReLU())


class Parent(nn.Module):
    def __init__(self):
        super().__init__()
        self.block = Block()
        self.layers = nn.ModuleList([nn.Linear(5, 5) for _ in range(2)])
        self.heads = nn.ModuleDict({"a": nn.Linear(5, 1)})
        self.unregistered = [nn.Linear(5, 5)]  # a plain list: not a submodule


parent = Parent()
returned = parent.to(device)
print(returned is parent)
print(sorted({str(p.device) for p in parent.parameters()}))
print(parent.block.inner[0].weight.device, parent.unregistered[0].weight.device)
# expect-stdout: True
# expect-stdout: ['cuda:0']
# expect-stdout: cuda:0 cpu
# expect: len(list(parent.parameters())) == 8
# > `Module._apply` recurses into every module registered in `_modules` - direct children, `Sequential`,
# > `ModuleList`, `ModuleDict`, at any depth - before converting the module's own tensors. What it cannot see
# > is what is not registered: the layer in a plain Python list stays on the CPU (use `nn.ModuleList`).
# > And the parent is not copied: `to()` returned the parent itself.

# %% step: The first example as written
# | The article's `CustomLinear` example, verbatim: the model is moved, the input is not.
# ? What happens at `output = model(input_tensor)`?
# - the output is computed on the CPU ("Likely CPU even with model on CUDA")
# - the input is moved to the GPU automatically
# = RuntimeError: the matmul mixes cpu and cuda:0
import torch
import torch.nn as nn

class CustomLinear(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(out_features, in_features))
        self.bias = nn.Parameter(torch.randn(out_features))

    def forward(self, x):
        return torch.matmul(x, self.weight.T) + self.bias # Inefficient but illustrative

# Initialize the module
model = CustomLinear(10, 5)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

# Move to the device, which is critical but potentially insufficient
model.to(device)

# Dummy Input
input_tensor = torch.randn(1, 10)
# No explicit to(device) on the input - potential error

output = model(input_tensor)

print(f"Output Device: {output.device}")  # Likely CPU even with model on CUDA
print(f"Weight Device: {model.weight.device}") # Correctly on CUDA
# expect-raises: RuntimeError: Expected all tensors to be on the same device, but got mat2 is on cuda:0, different from other tensors on cpu (when checking argument in method wrapper_CUDA_mm)
# expect: str(input_tensor.device) == "cpu" and str(model.weight.device) == "cuda:0"
# > `torch.matmul` of two matrices is `mm(self, mat2)`. Because one operand is on the GPU the CUDA kernel is
# > picked, and its argument check finds `self` (the input) on the CPU and `mat2` (the transposed weight) on
# > cuda:0. There is no configuration in which PyTorch quietly computes this on the CPU and hands back a CPU
# > tensor: mixing devices in an op is an error (a 0-dim CPU tensor, like a Python number, is the only exception).

# %% step: The revised example as written
# | The article's fix: move the input too.
import torch
import torch.nn as nn

class CustomLinear(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(out_features, in_features))
        self.bias = nn.Parameter(torch.randn(out_features))

    def forward(self, x):
        return torch.matmul(x, self.weight.T) + self.bias

# Initialize the module
model = CustomLinear(10, 5)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

# Move to the device, which is critical but potentially insufficient
model.to(device)

# Dummy Input
input_tensor = torch.randn(1, 10)

# Now explicitly move input
input_tensor = input_tensor.to(device)

output = model(input_tensor)

print(f"Output Device: {output.device}") # Now correctly on CUDA
print(f"Weight Device: {model.weight.device}") # Correctly on CUDA
# expect-stdout: Output Device: cuda:0
# expect-stdout: Weight Device: cuda:0
# > `input_tensor = input_tensor.to(device)` rebinds the name to the CUDA copy; the CPU original is freed
# > because nothing refers to it any more.

# %% step: `torch.split` as written
# | The article's `ExampleModel`, whose forward returns `torch.split(...)`.
import torch
import torch.nn as nn
import torch.nn.functional as F

class ExampleModel(nn.Module):
  def __init__(self):
    super().__init__()
    self.linear = nn.Linear(10, 5)

  def forward(self, x):
    intermediate = F.relu(self.linear(x))
    return torch.split(intermediate, 2, dim=1) # returns a tuple of tensors

model = ExampleModel()
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model.to(device)

input_tensor = torch.randn(1, 10)
input_tensor = input_tensor.to(device)
outputs = model(input_tensor)

for tensor in outputs:
   print(f"Sub tensor device {tensor.device}") # Will correctly print device, CUDA or CPU
# expect-stdout: Sub tensor device cuda:0
# expect-stdout: Sub tensor device cuda:0
# expect-stdout: Sub tensor device cuda:0
# expect: [tuple(t.shape) for t in outputs] == [(1, 2), (1, 2), (1, 1)]
# expect: outputs[1].data_ptr() - outputs[0].data_ptr() == 2 * 4
# > `torch.split` returns *views*: three windows onto the one CUDA storage of `intermediate` (the second view
# > starts 2 floats = 8 bytes after the first). Results of ops always live on their inputs' device.

# %% step: The recursive helper as written
# | The article's helper for tensors inside lists and dicts.
def recursive_to_device(data, device):
  if isinstance(data, torch.Tensor):
      return data.to(device)
  elif isinstance(data, list):
      return [recursive_to_device(item, device) for item in data]
  elif isinstance(data, dict):
      return {key: recursive_to_device(value, device) for key, value in data.items()}
  else:
      return data

# Within the training loop one can utilise the utility
training_data = [torch.randn(10,10), torch.randn(10,10)]
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
training_data = recursive_to_device(training_data, device)
# expect: [str(t.device) for t in training_data] == ["cuda:0", "cuda:0"]
# expect: str(recursive_to_device({"x": torch.ones(1), "n": 3}, device)["x"].device) == "cuda:0"
# > It works, and it is needed: lists and dicts have no `.to()`. It builds *new* containers of new tensors,
# > so the result must be assigned, exactly like `Tensor.to`. (Tuples fall through to `return data`
# > unmoved; PyTorch's DataLoader pinning handles tuples, lists and dicts.)

# %% step: Old references keep the old tensor
# | The article: "if one modifies a tensor after transferring it to a device, but a reference to the original
# | tensor was retained, subsequent operations on that original tensor may still execute on the wrong device."
a = torch.ones(3)
kept = a
a = a.to(device)
a.add_(1)
print(kept.device, kept.tolist(), a.device, a.tolist())
# expect-stdout: cpu [1.0, 1.0, 1.0] cuda:0 [2.0, 2.0, 2.0]
# > True: `kept` still names the original CPU tensor, which neither moved nor saw the in-place update of the
# > CUDA copy. Two tensors, two devices, two independent values.
