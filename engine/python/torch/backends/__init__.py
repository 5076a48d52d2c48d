# torch.backends: the flags scripts commonly set (cudnn.benchmark, allow_tf32); they change nothing here.
import types as _types

cudnn = _types.SimpleNamespace(enabled=True, benchmark=False, deterministic=False, allow_tf32=True,
                               is_available=lambda: True, version=lambda: 90100)
cuda = _types.SimpleNamespace(matmul=_types.SimpleNamespace(allow_tf32=False,
                                                            allow_fp16_reduced_precision_reduction=True),
                              is_built=lambda: True)
mps = _types.SimpleNamespace(is_available=lambda: False, is_built=lambda: False)
