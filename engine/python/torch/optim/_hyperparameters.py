# What PyTorch's optimizers check and fill in the same way: the constructor's hyper-parameter checks (with
# their exact messages) and the param-group defaults `__setstate__` adds to groups saved by older versions.

_LABELS = {"lr": "learning rate", "eps": "epsilon value"}


def check(**values):
    """Raises PyTorch's ValueError for the first bad value, in the order given: every value must be >= 0,
    `rho` <= 1 too, and each of `betas` in [0, 1)."""
    for name, value in values.items():
        if name == "betas":
            for i, beta in enumerate(value):
                if not 0.0 <= beta < 1.0:
                    raise ValueError(f"Invalid beta parameter at index {i}: {beta}")
        elif not (0.0 <= value <= 1.0 if name == "rho" else 0.0 <= value):
            raise ValueError(f"Invalid {_LABELS.get(name, name + ' value')}: {value}")


def set_group_defaults(optimizer, **defaults):
    for group in optimizer.param_groups:
        for key, value in defaults.items():
            group.setdefault(key, value)
