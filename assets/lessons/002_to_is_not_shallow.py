# %% lesson: Is `to()` shallow? Layers created in `forward`, plain tensor attributes
# | An article (seed 002, "Why isn't a PyTorch layer transferring to the GPU using the `to()` function?")
# | explains failed moves by claiming that `to()` is *shallow*: the layer object moves, but its weights
# | "are not automatically moved unless they are explicitly accessed". It also says a layer created inside
# | `forward` after the move "inherits the device of the input".
# |
# | Both claims are false, and the article's own first example shows it: run as printed, it crashes. Its other
# | advice - build layers in `__init__`, and know that plain tensor attributes do not move - is sound.
# seed: 002_3d037eabfb1a1289.txt
# requires: torch.cuda.is_available()
# verdict: FALSE | `to()` is a shallow copy: weights move only when they are accessed after the move | `Module.to` converts every parameter and buffer of every submodule during the call | `to()` is eager and recursive
# verdict: FALSE | A layer created in `forward` after `to()` inherits the device of the input | It is created on the CPU (the default device); its first use with a CUDA input raises | Example 1 as written
# verdict: TRUE | Layers must be created before the move (in `__init__`) to move with the model | `to()` converts what is registered at the time of the call, nothing created later | Example 2 as written
# verdict: TRUE | A plain tensor attribute (`self.some_tensor = torch.randn(5, 5)`) is not moved by `module.to()` | Only parameters, buffers and submodules are registered; a plain attribute is ordinary Python state | A plain tensor attribute stays behind
# verdict: HALF-TRUE | "All tensors that are members of a class object must be explicitly moved" | Only plain attributes; `register_buffer` makes a tensor move with the module | The fix: `register_buffer`

# %% step: Example 1 as written
# | The article's first example, verbatim: the `nn.Linear` is created lazily inside `forward`, after
# | `model.to(device)`.
# ? What happens when this runs?
# - It prints "Model is on: cuda:0" and "Output is on: cuda:0" - the layer inherits the input's device
# - It prints "Model is on: cpu" and "Output is on: cuda:0"
# = It raises a RuntimeError before printing anything
import torch
import torch.nn as nn

class MyModule(nn.Module):
    def __init__(self):
        super(MyModule, self).__init__()
        self.linear = None # Deferred initialization

    def forward(self, x):
        if self.linear is None:
            self.linear = nn.Linear(10, 5) # Initialize inside forward pass
        return self.linear(x)

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = MyModule()
model.to(device)

input_tensor = torch.randn(1, 10)
output = model(input_tensor.to(device)) # Move input tensor

print(f"Model is on: {next(model.parameters()).device}")
print(f"Output is on: {output.device}")
# expect-raises: RuntimeError: Expected all tensors to be on the same device, but got mat1 is on cuda:0, different from other tensors on cpu (when checking argument in method wrapper_CUDA_addmm)
# expect: str(model.linear.weight.device) == "cpu"
# expect: "output" not in dir()
# > `nn.Linear(10, 5)` allocates its weight and bias with the default device - the CPU - no matter where the
# > input is. `nn.Linear` computes `addmm(bias, input, weight.t())`; the CUDA kernel is chosen because the input
# > (`mat1`) is on the GPU, and its device check fails on the CPU bias and weight. PyTorch never silently
# > moves a tensor for you. The layer *was* registered (the assignment ran before the call), so
# > `model.linear.weight` exists - on the CPU.

# %% step: Example 2 as written
# | The article's fix: create the layer in `__init__`.
import torch
import torch.nn as nn

class MyModule(nn.Module):
    def __init__(self):
        super(MyModule, self).__init__()
        self.linear = nn.Linear(10, 5) # Initialized in __init__

    def forward(self, x):
        return self.linear(x)

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = MyModule()
model.to(device)

input_tensor = torch.randn(1, 10).to(device)

output = model(input_tensor)


print(f"Model Parameter device is on: {next(model.parameters()).device}")
print(f"Output is on: {output.device}")
# expect-stdout: Model Parameter device is on: cuda:0
# expect-stdout: Output is on: cuda:0
# > This works because the layer exists when `to()` runs. (If a layer really must be created late, create it
# > on the right device: `nn.Linear(10, 5, device=x.device)`, or call `.to(x.device)` on it.)

# %% step: `to()` is eager and recursive
# | "Shallow until accessed" would mean no GPU memory is used until we touch the weights. We never touch them:
# | we only read the allocator's counter before and after `to()`.
# ? How many bytes does `torch.cuda.memory_allocated()` grow by during `net.to(device)` (before anything reads a weight)?
# - 0 - nothing has been accessed yet
# = 3072 - three weights and three biases, each rounded up to a 512-byte block
# - 1024 - only the top-level layer moves
net = nn.Sequential(nn.Linear(10, 5), nn.Sequential(nn.Linear(5, 5), nn.Linear(5, 2)))
before = torch.cuda.memory_allocated()
net.to(device)
print(torch.cuda.memory_allocated() - before)
# expect-stdout: 3072
# expect: all(str(p.device) == "cuda:0" for p in net.parameters())
# expect: str(net[1][1]._parameters["bias"].device) == "cuda:0"
# > `Module.to` calls `_apply`, which first recurses into every child (at any depth), then converts the
# > module's own parameters, their gradients, and its buffers - all during the call. Each of the six tensors
# > is a separate CUDA allocation; the caching allocator rounds every request up to a multiple of 512 bytes,
# > so 6 x 512 = 3072 bytes appear at once. Nothing is deferred, and there is no "layer object on the GPU":
# > a module is a Python object on the host; only its tensors have devices.

# %% step: Example 3 as written
# | The article's third example keeps a plain tensor in `self.some_tensor` and moves it by hand.
import torch
import torch.nn as nn

class MyModule(nn.Module):
    def __init__(self):
        super(MyModule, self).__init__()
        self.linear = nn.Linear(10, 5)
        self.some_tensor = torch.randn(5, 5)

    def forward(self, x):
        return self.linear(x) + self.some_tensor

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = MyModule()
model.to(device)

model.some_tensor = model.some_tensor.to(device) #Explicit movement of non-layer tensor

input_tensor = torch.randn(1, 10).to(device)

output = model(input_tensor)

print(f"Model Parameter device is on: {next(model.parameters()).device}")
print(f"Model's self.some_tensor device: {model.some_tensor.device}")
print(f"Output is on: {output.device}")
# expect-stdout: Model Parameter device is on: cuda:0
# expect-stdout: Model's self.some_tensor device: cuda:0
# expect-stdout: Output is on: cuda:0
# expect: tuple(output.shape) == (5, 5)
# > It runs. (Note the output shape: `(1, 5) + (5, 5)` broadcasts to `(5, 5)` - probably not what was meant.)

# %% step: A plain tensor attribute stays behind
# | The same module without the manual move.
# ? What happens in the forward pass?
# - `to()` moved `some_tensor` too, so it works
# - the addition happens on the CPU and the output is on the CPU
# = RuntimeError: the addition mixes cuda:0 and cpu
model = MyModule()
model.to(device)
print(model.some_tensor.device, "some_tensor" in model.state_dict())
output = model(torch.randn(1, 10).to(device))
# expect-stdout: cpu False
# expect-raises: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!
# > `self.some_tensor = torch.randn(5, 5)` stores a plain Python attribute: `Module.__setattr__` registers only
# > Parameters (as parameters), Modules (as children) and names already registered as buffers. `to()` never
# > sees the tensor, `state_dict()` does not save it. The elementwise `+` refuses to mix devices.

# %% step: The fix: `register_buffer`
# | Register the tensor as a buffer and it moves (and is saved) with the module.
class MyModuleWithBuffer(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(10, 5)
        self.register_buffer("some_tensor", torch.randn(5, 5))

    def forward(self, x):
        return self.linear(x) + self.some_tensor

model = MyModuleWithBuffer()
model.to(device)
output = model(torch.randn(1, 10).to(device))
print(model.some_tensor.device, output.device, "some_tensor" in model.state_dict())
# expect-stdout: cuda:0 cuda:0 True
# > Buffers are converted by `to()` like parameters (use `persistent=False` to keep one out of the
# > `state_dict`). One difference remains - a buffer is *replaced* by a new tensor when it moves, a Parameter is
# > not - see the lesson on buffers.
