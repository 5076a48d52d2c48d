# torch.utils for DeviceScope: the pieces PyTorch code commonly uses (data, hooks). As in PyTorch,
# `import torch` is enough for `torch.utils.data.DataLoader` to resolve.
from . import hooks  # noqa: F401
from . import data  # noqa: F401
from . import checkpoint  # noqa: F401  (torch.utils.checkpoint.checkpoint after `import torch`, as in PyTorch 2.x)
