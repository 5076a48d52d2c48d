# %% lesson: `model.to(device)` vs `model = model.to(device)`
# | An article (seed 000, "What's the difference between `model.to(device)` and `model = model.to(device)`?")
# | claims the two lines behave differently: that `model.to(device)` may leave other references pointing at
# | the old location, that its outcome is "unpredictable", and that only the reassignment is safe.
# |
# | We run the article's three examples exactly as printed, then look at what really happens inside
# | `nn.Module.to`: it converts every parameter in place (same Parameter, new data), replaces every buffer, and returns `self`.
# seed: 000_5fced8feb2c5b451.txt
# requires: torch.cuda.is_available()
# verdict: FALSE | `model.to(device)` may leave other references pointing at the old location | `Module.to` moves every parameter in place and returns `self`: every name and every holder sees the move | Every reference sees the move
# verdict: FALSE | `model = model.to(device)` creates a new model object | `to` returns the very same object; the assignment rebinds the name to what it already was | `to` returns `self`
# verdict: FALSE | Example 1 prints "cuda:0" or "cpu" "depending on implementation details - unpredictable" | It always prints the device the model was moved to | Example 1 as written
# verdict: TRUE | Example 2 "will always print the correct device" | True - and so does Example 1, for the same reason | Example 2 as written
# verdict: FALSE | In Example 3 `model_copy` "might print CPU if it creates a new object" | `model_copy is model`; `Module.to` never creates a new object, so both print the CUDA device | Example 3 as written
# verdict: HALF-TRUE | Reassigning (`x = x.to(device)`) is the safe habit | Required for tensors (`Tensor.to` is out of place); for modules it is harmless but changes nothing | Where reassignment really matters: tensors

# %% step: Example 1 as written
# | The article's first example, verbatim. `my_function` receives the model after `model.to(device)`
# | without any reassignment. In DeviceScope `torch.cuda.is_available()` is True (real or simulated GPUs).
# ? What does `my_function(model)` print?
# - cpu - `my_function` still holds a reference to the old model
# = cuda:0
# - it depends on implementation details
import torch

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = torch.nn.Linear(10, 2)
model.to(device)

# Assume 'my_function' expects a model on the CPU
def my_function(model):
    print(next(model.parameters()).device) #check parameter location

my_function(model)  #This might print "cuda:0" or "cpu" depending on implementation details - unpredictable
# expect-stdout: cuda:0
# expect: str(model.weight.device) == "cuda:0"
# expect: str(model.bias.device) == "cuda:0"
# > There is only one model object. `model.to(device)` replaced the storage behind `model.weight` and
# > `model.bias` with new CUDA storage during the call (`param.data = fn(param)` inside `Module._apply`),
# > so any code that looks at the model afterwards sees `cuda:0`. Nothing about it is unpredictable.
# > (`torch.device("cuda")` has no index: the parameters land on the *current* CUDA device, `cuda:0`.)

# %% step: `to` returns `self`
# | The whole difference between the two lines is what `to` returns. Let's ask Python directly.
# ? After `result = model.to(device)`, what is `result is model`?
# = True - `to` returns the module itself
# - False - `to` returns a moved copy
# - True only if the model was already on the device
model = torch.nn.Linear(10, 2)
model_id_before = id(model)
result = model.to(device)
print(result is model, id(result) == model_id_before)
# expect-stdout: True True
# expect: result is model
# > `nn.Module.to` (and `.cuda()`, `.cpu()`, `.half()`, `.double()`, ...) converts the module in place and
# > ends with `return self`. So `model = model.to(device)` assigns the same object to the same name: a
# > harmless no-op assignment, not a new model.

# %% step: Example 2 as written
# | The article's "guaranteed correctness" version.
import torch

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = torch.nn.Linear(10, 2)
model = model.to(device)

# Assume 'my_function' expects a model on a GPU or CPU
def my_function(model):
    print(next(model.parameters()).device) #check parameter location

my_function(model) #This will always print the correct device
# expect-stdout: cuda:0
# > Same output as Example 1: the reassignment added nothing.

# %% step: Example 3 as written
# | The "advanced scenario": a second name for the model, then `model.to(device)` without reassignment.
# ? What does the second `print` (the one for `model_copy`) show?
# - cpu - `model_copy` still points at the old model
# = cuda:0
# - it is inconsistent between runs
import torch

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = torch.nn.Linear(10, 2)
model_copy = model  # Creating a shared reference

model.to(device) # In-place modification

print(next(model.parameters()).device)   # Prints the correct device
print(next(model_copy.parameters()).device) # Prints the correct device if to() returns self, but might print CPU if it creates a new object.  Inconsistent.

model_copy = model_copy.to(device) # Explicit Reassignment to the copy

print(next(model_copy.parameters()).device) #Always prints the correct device.
# expect-stdout: cuda:0
# expect-stdout: cuda:0
# expect-stdout: cuda:0
# expect: model_copy is model
# > `model_copy = model` does not copy anything: it is a second name for one object, and `model_copy is model`
# > stays True throughout. The "explicit reassignment" at the end calls `to` on a module that is already on
# > the device (nothing moves) and binds `model_copy` to the object it already named.

# %% step: Every reference sees the move
# | The article's worry: "if `model` is passed to other functions or parts of the code, those components might
# | still retain a reference to the *old* location". Let's hold on to the model in every way we can - another
# | name, a dict, a list, even a direct reference to its weight Parameter - and then move it once.
# ? After one `model.to(device)`, which of `alias`, `registry["net"]`, `pipeline[0]` and `weight` are on the GPU?
# - only `model` itself - the others still hold the old CPU model
# - `alias`, `registry` and `pipeline`, but not `weight`: it was taken before the move
# = all four - they refer to the one model (and its one weight Parameter), which moved in place
model = torch.nn.Linear(10, 2)
alias = model
registry = {"net": model}
pipeline = [model]
weight = model.weight
model.to(device)
print(alias.weight.device, registry["net"].weight.device, pipeline[0].weight.device, weight.device)
# expect-stdout: cuda:0 cuda:0 cuda:0 cuda:0
# expect: weight is model.weight
# expect: registry["net"] is model and pipeline[0] is model
# > References point at the *object*, and the object was changed in place. Even `weight`, taken before the
# > move, is still `model.weight`: PyTorch keeps each Parameter's identity and only swaps the storage behind
# > it. (Watch the memory panes: the old CPU storage of the weight is freed as soon as it is swapped out.)
# > What does get left behind are handles to the old *storage* - `.data`, `.detach()`, views - and buffers
# > taken before the move; see the lessons on buffers and on views.

# %% step: Where reassignment really matters: tensors
# | The habit the article recommends is essential for *tensors*: `Tensor.to` is out of place.
# ? After `x.to(device)` as a bare statement, where is `x`?
# = cpu - the moved copy was thrown away
# - cuda:0
# - it depends on whether the copy finished
x = torch.randn(3)
x.to(device)
print(x.device)
x = x.to(device)
print(x.device)
# expect-stdout: cpu
# expect-stdout: cuda:0
# expect: x.is_cuda
# > `Tensor.to` returns a *new* tensor on the target (or `x` itself when nothing would change) and never
# > modifies `x`. A bare `x.to(device)` allocates a CUDA copy that dies at once because no name refers to it -
# > DeviceScope shows that short-lived block. So: `x = x.to(device)` for tensors; `model.to(device)` is enough
# > for modules, and `model = model.to(device)` is fine too, just not necessary.
