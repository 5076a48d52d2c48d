# torch.randn's float32 Box-Muller in C++ (engine/python/bindings_sampling.cpp) against the numpy emulation it
# replaces (torch/_cpu_sampling.py _block16_avx2 and torch/_avx_mathfun.py, DEVICESCOPE_NO_FAST_OPS=1), through
# tests/tools/run_fast_path_agreement.py: the same bits for every size class the kernel sees (exactly 16, a
# partial last block that is drawn again, large tensors), normal_ with a mean and std (the double scaling), a
# generator, the CUDA side (drawn on the host the same way), and the generator's state afterwards. The values
# themselves are PyTorch's (conformance random_seeded_values compares them with real torch).
import hashlib

import torch


def digest(t):
    return hashlib.sha1(t.detach().cpu().double().numpy().tobytes()).hexdigest()[:16]


def hexes(t):
    return " ".join(float(v).hex() for v in t.detach().cpu().double().reshape(-1).tolist())


print("fast path:", "off" if type(torch.Tensor.__dict__["__add__"]).__name__ == "function" else "on")
torch.manual_seed(11)
for n in (16, 17, 31, 32, 100, 4099, 65536 + 5):
    x = torch.randn(n)
    print("randn", n, digest(x), hexes(x[:4]), hexes(x[-4:]))
for mean, std in ((0.0, 1.0), (2.5, 0.3), (-1e3, 1e-3), (0.0, 0.0), (1.0, float("inf"))):
    y = torch.empty(1000).normal_(mean, std)
    print("normal_", mean, std, digest(y), hexes(y[:3]))
g = torch.Generator().manual_seed(7)
print("generator", digest(torch.randn(3, 5, 7, generator=g)), hexes(torch.randn(20, generator=g)))
print("like", digest(torch.randn_like(torch.empty(8, 3, 32, 32))))
print("float64 (libm path, not the kernel)", digest(torch.randn(40, dtype=torch.float64)))
if torch.cuda.is_available():
    print("cuda", digest(torch.randn(2, 3, 40, device="cuda")))
print("state after", digest(torch.get_rng_state().double()), hexes(torch.rand(4)))
