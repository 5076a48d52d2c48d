# torch.utils for DeviceScope: only the pieces PyTorch code commonly imports (data, hooks).
# Submodules are imported lazily by `import torch.utils.data` as in PyTorch.
