# DeviceScope runs OpenBLAS with its own settings (OPENBLAS_CORETYPE for this CPU, OPENBLAS_NUM_THREADS one per
# core: tensor/blas_gemm.h) but leaves the user's environment as it was: os.environ and the processes a script
# starts see the OPENBLAS_* variables the user had (/proc/self/environ: the environment the process was started
# with), not DeviceScope's. The library itself still runs on DeviceScope's core type.
import ctypes
import os
import subprocess


def openblas_vars(pairs):
    return {k: v for k, v in pairs if k.startswith("OPENBLAS_")}


with open("/proc/self/environ", "rb") as f:
    user = openblas_vars(tuple(e.decode().split("=", 1)) for e in f.read().split(b"\0") if b"=" in e)

import torch  # noqa: E402  (loads numpy, and with it the BLAS)

x = torch.randn(64, 64)
y = x @ x
out = subprocess.run(["env"], capture_output=True, text=True, check=True).stdout
child = openblas_vars(tuple(line.split("=", 1)) for line in out.splitlines() if "=" in line)
print("a subprocess sees the user's OpenBLAS variables:", child == user)
print("os.environ holds the user's OpenBLAS variables:", openblas_vars(os.environ.items()) == user)

# The core type DeviceScope picks (set_blas_settings), from the CPU's flags; OpenBLAS says which it runs.
with open("/proc/cpuinfo") as f:
    flags = set(next((line.split(":", 1)[1].split() for line in f if line.startswith("flags")), []))
if {"avx512f", "avx512bw", "avx512vl", "avx512dq"} <= flags:
    wanted = "skylakex"
elif {"avx2", "fma"} <= flags:
    wanted = "haswell"
else:
    wanted = None
try:
    corename = ctypes.CDLL("libblas.so.3").openblas_get_corename
    corename.restype = ctypes.c_char_p
    running = corename().decode().lower()
except (OSError, AttributeError):  # not OpenBLAS: nothing of this applies to it
    running = None
print("OpenBLAS runs on DeviceScope's core type:",
      running is None or "OPENBLAS_CORETYPE" in user or wanted is None or running == wanted)
