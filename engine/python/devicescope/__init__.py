# DeviceScope's own helpers inside the embedded interpreter (the app's views read what they produce).
# names: the object graph of the user's globals (names -> objects, module tree, what changed).
# tensors: virtual(...) tensors (placed and moved, never materialised).
from .tensors import is_virtual, virtual, virtual_mode  # noqa: E402,F401
