# torch.backends flags and torch.set_float32_matmul_precision against real PyTorch: values read back, the
# precision <-> cuda.matmul.allow_tf32 link, `import torch.backends.cudnn as cudnn`, unknown cuBLAS attributes
# refused, a non-str precision refused (an unknown string warns and changes nothing; the warning is C++'s log
# in 1.13, not printed). CUDA availability answers differ on a CPU-only torch and are not printed.
import torch, warnings
import torch.backends.cudnn as cudnn
import torch.backends.cuda
cudnn.benchmark = True
print(torch.backends.cudnn.benchmark, cudnn.enabled, cudnn.deterministic)
print(torch.get_float32_matmul_precision(), torch.backends.cuda.matmul.allow_tf32)
torch.set_float32_matmul_precision('high'); print(torch.get_float32_matmul_precision(), torch.backends.cuda.matmul.allow_tf32)
torch.set_float32_matmul_precision('medium'); print(torch.get_float32_matmul_precision())
with warnings.catch_warnings(record=True):
    warnings.simplefilter("always")
    torch.set_float32_matmul_precision('foo'); print(torch.get_float32_matmul_precision())
torch.backends.cuda.matmul.allow_tf32=False; print(torch.get_float32_matmul_precision())
torch.backends.cuda.matmul.allow_tf32=True; print(torch.get_float32_matmul_precision())
try: torch.set_float32_matmul_precision(3)
except Exception as e: print(type(e).__name__, e)
print(torch.backends.cudnn.allow_tf32, torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction)
try: torch.backends.cuda.matmul.foo
except Exception as e: print(type(e).__name__, e)
try: torch.backends.cuda.matmul.foo = 1
except Exception as e: print(type(e).__name__, e)
print(torch.backends.cuda.flash_sdp_enabled(), torch.backends.mps.is_available(), torch.backends.cuda.is_built() in (True, False))
torch.backends.cuda.enable_flash_sdp(False); print(torch.backends.cuda.flash_sdp_enabled())
print(torch.backends.openmp.is_available() in (True, False), torch.backends.mkldnn.is_available() in (True, False))
