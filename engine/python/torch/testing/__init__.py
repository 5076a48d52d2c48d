# torch.testing: assert_close (PyTorch's default tolerances per dtype and its mismatch messages) and make_tensor.
from ._comparison import assert_close, assert_allclose  # noqa: F401
from ._creation import make_tensor  # noqa: F401
