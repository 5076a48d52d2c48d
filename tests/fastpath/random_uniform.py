# The CPU generator's uniform draws in C++ (engine/python/bindings_sampling.cpp mt19937_unit: numpy's MT19937 stepped
# from the state numpy holds, 2^16 draws or more) against numpy's random_raw path (DEVICESCOPE_NO_FAST_OPS=1),
# through tests/tools/run_fast_path_agreement.py: the same bits for float64 (two draws each), float32, float16 and
# bfloat16 around the size threshold and across the state's 624-word regenerations, uniform_ ranges, a generator,
# randn of a large tensor (its uniforms), the CUDA side, and the generator's state afterwards (get/set_rng_state
# round trip). The values themselves are PyTorch's (conformance random_seeded_values compares them with real torch).
import hashlib

import torch


def digest(t):
    return hashlib.sha1(t.detach().cpu().double().numpy().tobytes()).hexdigest()[:16]


print("fast path:", "off" if type(torch.Tensor.__dict__["__add__"]).__name__ == "function" else "on")
torch.manual_seed(3)
for n in (5, 65535, 65536, 65537, 100003):
    for dt in (torch.float64, torch.float32, torch.float16, torch.bfloat16):
        print("rand", n, dt, digest(torch.rand(n, dtype=dt)))
for lo, hi in ((0.0, 1.0), (-2.0, 3.0), (0.5, 0.75)):
    print("uniform_", lo, hi, digest(torch.empty(70000, dtype=torch.float64).uniform_(lo, hi)),
          digest(torch.empty(70000).uniform_(lo, hi)))
g = torch.Generator().manual_seed(9)
print("generator", digest(torch.rand(300, 300, generator=g, dtype=torch.float64)), digest(torch.rand(7, generator=g)))
print("randn", digest(torch.randn(80000)))
if torch.cuda.is_available():
    print("cuda", digest(torch.rand(300, 200, device="cuda")))
s = torch.get_rng_state()
a = torch.rand(70000, dtype=torch.float64)
torch.set_rng_state(s)
print("state round trip", torch.equal(a, torch.rand(70000, dtype=torch.float64)))
print("state after", digest(torch.get_rng_state().double()), digest(torch.rand(4)))
