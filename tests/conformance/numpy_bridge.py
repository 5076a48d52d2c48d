# torch.from_numpy / Tensor.numpy share memory; dtypes map one to one.
import numpy as np
import torch

a = np.arange(4)
t = torch.from_numpy(a)
print(t, t.dtype)
a[0] = 100
print(t)
t[1] = -5
print(a.tolist())
f = torch.tensor([1.5, 2.5])
n = f.numpy()
print(n.dtype, n.tolist())
n[0] = 9.
print(f)
print(torch.from_numpy(np.zeros(2, dtype=np.float32)).dtype, torch.from_numpy(np.ones(2, dtype=np.bool_)).dtype)
print(torch.tensor(np.array([1, 2], dtype=np.int32)).dtype, torch.as_tensor(np.array([1.])).dtype)
try:
    torch.tensor([1.], requires_grad=True).numpy()
except RuntimeError as e:
    print(type(e).__name__, e)
print(torch.tensor([1.], requires_grad=True).detach().numpy().tolist())
