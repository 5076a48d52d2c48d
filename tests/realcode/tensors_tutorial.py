# source: https://pytorch.org/tutorials/beginner/basics/tensorqs_tutorial.html (Tensors)
# changed: the accelerator line uses torch.cuda (1.13 has no torch.accelerator); prints kept; checks at the end
#          (values, shapes, dtypes, devices, numpy sharing).
# reference: real
import numpy as np
import torch

# Initializing a Tensor
data = [[1, 2], [3, 4]]
x_data = torch.tensor(data)
np_array = np.array(data)
x_np = torch.from_numpy(np_array)
x_ones = torch.ones_like(x_data)
print(f"Ones Tensor: \n {x_ones} \n")
x_rand = torch.rand_like(x_data, dtype=torch.float)
print(f"Random Tensor: \n {x_rand} \n")

shape = (2, 3,)
rand_tensor = torch.rand(shape)
ones_tensor = torch.ones(shape)
zeros_tensor = torch.zeros(shape)
print(f"Random Tensor: \n {rand_tensor} \n")
print(f"Ones Tensor: \n {ones_tensor} \n")
print(f"Zeros Tensor: \n {zeros_tensor}")

# Attributes of a Tensor
tensor = torch.rand(3, 4)
print(f"Shape of tensor: {tensor.shape}")
print(f"Datatype of tensor: {tensor.dtype}")
print(f"Device tensor is stored on: {tensor.device}")

# Operations on Tensors
if torch.cuda.is_available():
    tensor = tensor.to("cuda")
moved_device = tensor.device

tensor = torch.ones(4, 4)
print(f"First row: {tensor[0]}")
print(f"First column: {tensor[:, 0]}")
print(f"Last column: {tensor[..., -1]}")
tensor[:, 1] = 0
print(tensor)

t1 = torch.cat([tensor, tensor, tensor], dim=1)
print(t1)

y1 = tensor @ tensor.T
y2 = tensor.matmul(tensor.T)
y3 = torch.rand_like(y1)
torch.matmul(tensor, tensor.T, out=y3)

z1 = tensor * tensor
z2 = tensor.mul(tensor)
z3 = torch.rand_like(tensor)
torch.mul(tensor, tensor, out=z3)

agg = tensor.sum()
agg_item = agg.item()
print(agg_item, type(agg_item))

print(f"{tensor} \n")
tensor.add_(5)
print(tensor)

# Bridge with NumPy
t = torch.ones(5)
print(f"t: {t}")
n = t.numpy()
print(f"n: {n}")
t.add_(1)
print(f"t: {t}")
print(f"n: {n}")

n = np.ones(5)
t = torch.from_numpy(n)
np.add(n, 1, out=n)
print(f"t: {t}")
print(f"n: {n}")

# Checks of what it computed.
assert x_data.dtype == torch.int64 and x_np.tolist() == data and x_rand.dtype == torch.float32
assert t1.shape == (4, 12) and torch.equal(y1, y2) and torch.equal(y1, y3) and torch.equal(z1, z3)
assert agg_item == 12.0 and tensor[0, 1].item() == 5.0 and tensor[0, 0].item() == 6.0
assert t.tolist() == [2.0] * 5 and t.dtype == torch.float64
assert moved_device.type == ("cuda" if torch.cuda.is_available() else "cpu")
print("checks passed")
