# %% lesson: A GPU guide, checked line by line
# | A guide (seed 004, "Leveraging GPUs in PyTorch: A Guide to Using .to(device) for Tensors and Models") gets
# | the basics right - `x = x.to(device)`, `model.to(device)` - but several of its examples do not run as
# | printed, and three of its "alternative approaches" describe things PyTorch does not do:
# | `torch.cuda.device(1)` does not create tensors on GPU 1, `DataLoader(pin_memory=True)` does not put batches
# | on the GPU, and there is no "automatic device inference".
# |
# | The guide's code was printed inside a bulleted page; the snippets from its numbered list are shown here
# | without the list's 4-space indent. Everything else is verbatim.
# seed: 004_b2ff7fbab39fbca7.txt
# requires: torch.cuda.device_count() >= 2
# verdict: TRUE | `x = x.to(device)` moves a tensor to the chosen device | `Tensor.to` returns the moved copy; the assignment keeps it | Moving tensors (section 2)
# verdict: FALSE | The guide's code examples run as shown | Its docstrings are never closed (SyntaxError) and the model skeleton has an empty method (IndentationError) | Example 1 as printed
# verdict: TRUE | `y = x.matmul(x.t())` is computed on the device `x` is on | Results of ops live on their inputs' device | Example 1 with its docstring closed
# verdict: FALSE | `SimpleModel` as written can be created and moved to the GPU | Without `super().__init__()` the first layer assignment raises AttributeError | SimpleModel with its docstring closed
# verdict: TRUE | `model.to(device)` moves the entire model, including its layers and parameters | Every registered submodule, parameter and buffer is converted during the call | The fix: call `super().__init__()`
# verdict: FALSE | Inside `with torch.cuda.device(1):`, `x = torch.randn(1000, 1000)` is created on GPU 1 | Factories without `device=` use the default device, the CPU; `torch.cuda.device` only changes the current CUDA device | `torch.cuda.device(1)` as written
# verdict: FALSE | Inside that block "operations on x and y will happen on GPU 1" | x and y are CPU tensors, so `x + y` runs on the CPU | `torch.cuda.device(1)` as written
# verdict: FALSE | With `DataLoader(..., pin_memory=True)` the batches "will be on the same device as the model" | Batches are copied into pinned (page-locked) CPU memory and stay on the CPU | The same loop with a dataset
# verdict: HALF-TRUE | `pin_memory=True` "can improve performance by asynchronously transferring data to pinned memory" | Pinning itself is an ordinary host copy; the gain is that the later `.to(device, non_blocking=True)` can be a true async DMA copy | Moving the pinned batch
# verdict: FALSE | PyTorch has an experimental automatic device inference: `Module.to(memory_format=torch.memory_format.AUTO)` | `torch.memory_format` has no `AUTO`; memory formats describe memory layout, never a device | "Automatic device inference"

# %% step: Moving tensors (section 2)
# | Section 2 of the guide ("Moving Tensors").
import torch
x = torch.randn(1000, 1000)  # Create a tensor on CPU
device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
x = x.to(device)  # Move x to the chosen device
# expect: str(x.device) == "cuda:0"
# expect: torch.cuda.memory_allocated(0) >= 4000000
# > Correct: the 4 MB copy lives on cuda:0 and the name `x` now refers to it. The CPU original had no other
# > name and was freed.

# %% step: Moving models (section 3) as printed
# | Section 3 ("Moving Models") - a sketch with a placeholder comment instead of a body.
import torch.nn as nn
class MyModel(nn.Module):
    def __init__(self):
        # ... define model layers here
model = MyModel()
model = model.to(device)  # Move the model to the chosen device
# expect-raises: IndentationError: expected an indented block after function definition on line ...
# > A comment is not a statement: Python needs at least `pass` in the method. Read it as pseudo-code; the
# > runnable version of the idea follows below (with `super().__init__()`, which the guide never shows).

# %% step: Example 1 as printed
# | "Example 1: Moving a Tensor to GPU (if available)", exactly as the page shows it.
# ? What happens when you paste this into Python?
# - x ends up on cuda:0 and y is computed there
# - x stays on the CPU because the function's result is discarded
# = SyntaxError: the docstring is never closed
import torch

def move_tensor_to_gpu(tensor):
  """Moves a tensor to the GPU if available, otherwise keeps it on CPU.

      tensor: The tensor to move.

      The tensor on the chosen device (CPU or GPU).
  device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
  return tensor.to(device)

# Create a tensor on CPU
x = torch.randn(1000, 1000)

# Move the tensor to the chosen device (CPU or GPU)
x = move_tensor_to_gpu(x)

# Now, x is on the appropriate device for computations
y = x.matmul(x.t())  # Assuming matrix multiplication
# expect-raises: SyntaxError: unterminated triple-quoted string literal ...
# > The page lost the docstring's closing `"""` (and probably its "Args:" and "Returns:" headings), so the rest
# > of the file is one long string. Nothing runs at all. The next step closes the docstring and changes
# > nothing else.

# %% step: Example 1 with its docstring closed
import torch

def move_tensor_to_gpu(tensor):
  """Moves a tensor to the GPU if available, otherwise keeps it on CPU.

      tensor: The tensor to move.

      The tensor on the chosen device (CPU or GPU).
  """
  device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
  return tensor.to(device)

# Create a tensor on CPU
x = torch.randn(1000, 1000)

# Move the tensor to the chosen device (CPU or GPU)
x = move_tensor_to_gpu(x)

# Now, x is on the appropriate device for computations
y = x.matmul(x.t())  # Assuming matrix multiplication
# expect: str(x.device) == "cuda:0" and str(y.device) == "cuda:0"
# expect: tuple(y.shape) == (1000, 1000)
# > With the docstring closed it works as described: the function returns the moved copy, the caller assigns
# > it, and the matmul runs where its operands are.

# %% step: The SimpleModel example as printed
# | The guide's second example, as the page shows it.
import torch.nn as nn

class SimpleModel(nn.Module):
  def __init__(self):
    self.linear = nn.Linear(10, 5)

  def forward(self, x):
    return self.linear(x)

def move_model_to_gpu(model):
  """Moves a model to the GPU if available, otherwise keeps it on CPU.

      model: The model to move.

      The model on the chosen device (CPU or GPU).
  device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
  return model.to(device)

# Create a model instance
model = SimpleModel()

# Move the model to the chosen device (CPU or GPU)
model = move_model_to_gpu(model)

# Now, model can be used for computations on the appropriate device
# expect-raises: SyntaxError: unterminated triple-quoted string literal ...
# > The same unterminated docstring. We close it in the next step - and meet the real bug.

# %% step: SimpleModel with its docstring closed
# | Only the closing `"""` is added.
# ? What happens at `model = SimpleModel()`?
# - it works; `move_model_to_gpu` then moves the Linear to cuda:0
# - it works, but the Linear stays on the CPU because it is not registered
# = AttributeError: the Linear cannot be assigned before `Module.__init__()` has run
import torch.nn as nn

class SimpleModel(nn.Module):
  def __init__(self):
    self.linear = nn.Linear(10, 5)

  def forward(self, x):
    return self.linear(x)

def move_model_to_gpu(model):
  """Moves a model to the GPU if available, otherwise keeps it on CPU.

      model: The model to move.

      The model on the chosen device (CPU or GPU).
  """
  device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
  return model.to(device)

# Create a model instance
model = SimpleModel()

# Move the model to the chosen device (CPU or GPU)
model = move_model_to_gpu(model)

# Now, model can be used for computations on the appropriate device
# expect-raises: AttributeError: cannot assign module before Module.__init__() call
# > `nn.Module.__setattr__` files a Module value into `self._modules` - which `Module.__init__()` creates. The
# > guide's `__init__` never calls `super().__init__()`, so the very first layer assignment fails.

# %% step: The fix: call `super().__init__()`
class SimpleModel(nn.Module):
  def __init__(self):
    super().__init__()
    self.linear = nn.Linear(10, 5)

  def forward(self, x):
    return self.linear(x)

model = SimpleModel()
model = move_model_to_gpu(model)
out = model(torch.randn(2, 10, device=device))
print(model.linear.weight.device, model.linear.bias.device, out.device)
# expect-stdout: cuda:0 cuda:0 cuda:0
# > Now the Linear is registered as a child module, and `model.to(device)` converts it with everything else.

# %% step: `torch.cuda.device(1)` as written
# | The guide's "Context Managers" example, verbatim.
# ? Where is `x` created?
# - cuda:1, as the comment says
# - cuda:0
# = cpu
import torch

with torch.cuda.device(1):  # Assuming you have multiple GPUs (index 1 here)
  x = torch.randn(1000, 1000)  # x will be created on GPU 1
  y = torch.randn(1000, 1000)  # y will also be created on GPU 1
  z = x + y  # Operations on x and y will happen on GPU 1

# Outside the context, tensors will be created on the default device again
w = torch.randn(500, 500)  # w will be created on CPU (assuming default is CPU)
# expect: [str(t.device) for t in (x, y, z, w)] == ["cpu", "cpu", "cpu", "cpu"]
# expect: torch.cuda.memory_allocated(1) == 0
# > `torch.cuda.device(1)` changes the *current CUDA device*. Factory functions without `device=` do not look
# > at it: they use the *default device*, which is the CPU. GPU 1 holds nothing after this block.

# %% step: What `torch.cuda.device(1)` does change
# | The current device matters wherever "cuda" has no index.
with torch.cuda.device(1):
    a = torch.randn(3, device="cuda")
    b = torch.randn(3).cuda()
    current = torch.cuda.current_device()
print(a.device, b.device, current, torch.cuda.current_device())
# expect-stdout: cuda:1 cuda:1 1 0
# > Inside the block, `device="cuda"`, `.cuda()` and `.to("cuda")` mean cuda:1. On exit the previous current
# > device (0) is restored.

# %% step: Creating tensors on GPU 1: `torch.device("cuda:1")`
# | What the guide wanted exists since PyTorch 2.0: a *default device* context.
with torch.device("cuda:1"):
    x = torch.randn(1000, 1000)
    y = torch.randn(1000, 1000)
    z = x + y
    layer = nn.Linear(4, 4)
print(x.device, z.device, layer.weight.device, torch.cuda.current_device())
# expect-stdout: cuda:1 cuda:1 cuda:1 0
# > `with torch.device("cuda:1"):` (or `torch.set_default_device("cuda:1")`) changes where factory functions
# > allocate when no `device=` is given - including the parameters of layers built inside it. It does not
# > change the current CUDA device. Passing `device=` explicitly is clearer still.

# %% step: `DataLoader(pin_memory=True)` as written
# | The guide's DataLoader example, verbatim - including the placeholder for the dataset.
import torch
from torch.utils.data import DataLoader

# ... (Define your dataset)

dataloader = DataLoader(dataset, batch_size=32, pin_memory=True)

for data in dataloader:
  inputs, labels = data
  # Now, inputs and labels will be on the same device as the model
  # (assuming the model is already on the GPU)
# expect-raises: NameError: name 'dataset' is not defined
# > The placeholder is not code. The next step defines a dataset and a model on the GPU and runs the same loop.

# %% step: The same loop with a dataset
# | A dataset of 96 samples and a model on cuda:0; the loop is the guide's.
# ? Where are `inputs` after the loop?
# - cuda:0, like the model
# = cpu, in pinned (page-locked) memory
# - cpu, in ordinary pageable memory
from torch.utils.data import TensorDataset
dataset = TensorDataset(torch.randn(96, 10), torch.randint(0, 5, (96,)))
model = nn.Linear(10, 5).to(device)

dataloader = DataLoader(dataset, batch_size=32, pin_memory=True)

for data in dataloader:
  inputs, labels = data
  # Now, inputs and labels will be on the same device as the model
  # (assuming the model is already on the GPU)
print(inputs.device, inputs.is_pinned(), labels.device, labels.is_pinned())
# expect-stdout: cpu True cpu True
# expect: str(next(model.parameters()).device) == "cuda:0"
# > The DataLoader collates each batch and, with `pin_memory=True`, copies it into page-locked *host* memory.
# > It never looks at your model and never moves anything to a GPU. `model(inputs)` here would raise the
# > mixed-device error.

# %% step: Moving the pinned batch
# | The step the guide leaves out: the move, asynchronous because the source is pinned.
inputs = inputs.to(device, non_blocking=True)
labels = labels.to(device, non_blocking=True)
outputs = model(inputs)
torch.cuda.synchronize()
print(inputs.device, labels.device, outputs.device)
# expect-stdout: cuda:0 cuda:0 cuda:0
# > From pinned memory the GPU's copy engine can read directly, so `non_blocking=True` returns at once and
# > the copy overlaps with whatever the host does next. Pinning itself is an extra host-to-host copy per
# > batch (done by a background thread when `num_workers > 0`). See the lessons on DataLoader pinning and on
# > pinned vs pageable transfers.

# %% step: "Automatic device inference"
# | The guide: "PyTorch has an experimental feature (`torch.nn.Module.to` with
# | `memory_format=torch.memory_format.AUTO`) that can potentially infer the target device".
model = model.to(memory_format=torch.memory_format.AUTO)
# expect-raises: AttributeError: type object 'torch.memory_format' has no attribute 'AUTO'
# > There is no such feature. The memory formats are `torch.contiguous_format`, `torch.channels_last`,
# > `torch.channels_last_3d` and `torch.preserve_format`: they describe how a 4-D/5-D tensor is laid out in
# > memory, never which device it is on. PyTorch does not infer devices; you choose them.
