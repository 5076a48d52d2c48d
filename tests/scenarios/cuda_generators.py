# Each CUDA device has its own default generator, as in PyTorch: a draw on "cuda" does not advance the CPU
# generator, so the CPU values after it are real PyTorch's (the first and second lines are what torch 1.13's
# CPU build prints for manual_seed(0); randn(3) and manual_seed(0); randn(3); rand(2)). torch.cuda.manual_seed
# seeds the current device only; torch.manual_seed seeds the CPU and every device. torch.random.fork_rng.
import torch

torch.manual_seed(0)
a = torch.randn(3, device="cuda")
print(torch.randn(3).tolist())
torch.cuda.manual_seed(5)
print(torch.rand(2).tolist())
torch.manual_seed(0)
b = torch.randn(3, device="cuda")
print("manual_seed seeds cuda:", torch.equal(a, b), a.device)
state = torch.cuda.get_rng_state()
c = torch.rand(4, device="cuda")
torch.cuda.set_rng_state(state)
print("cuda state replays:", torch.equal(c, torch.rand(4, device="cuda")))
torch.cuda.manual_seed(7)
print("initial seeds:", torch.cuda.initial_seed(), torch.initial_seed(), len(torch.cuda.get_rng_state_all()))
torch.cuda.manual_seed_all(11)
print("device 1:", torch.cuda.get_rng_state(1).equal(torch.cuda.get_rng_state(0)))
try:
    torch.randn(2, device="cuda", generator=torch.Generator())
except RuntimeError as e:
    print("RuntimeError:", e)
g = torch.Generator(device="cuda").manual_seed(1)
print(torch.rand(2, device="cuda", generator=g).device, torch.randperm(5, device="cuda").device)
torch.random.manual_seed(3)
with torch.random.fork_rng(devices=[0]):
    first = torch.rand(2)
    torch.rand(2, device="cuda")
print("fork_rng restores:", torch.equal(first, torch.rand(2)))
