# Helpers of the DataLoader: collation and pinning.
from . import collate, pin_memory  # noqa: F401
