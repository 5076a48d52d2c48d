# A script that fails half way: `devicescope record` passes its traceback and exit code through and
# still writes what was recorded up to the failure (tests/record/check_record.py).
import torch

kept = torch.ones(1000, dtype=torch.float64)


def fail():
    raise ValueError("boom from the recorded script")


fail()
