# torch.return_types: the named tuples some ops return (max, min, sort, topk, ...), printed like PyTorch's.


def _make(name, fields):
    def __new__(cls, *args):
        if len(args) == 1 and isinstance(args[0], (tuple, list)) and len(args[0]) == len(fields):
            args = tuple(args[0])
        return tuple.__new__(cls, args)

    def __repr__(self):
        body = ",\n".join(f"{f}={v!r}" for f, v in zip(fields, self))
        return f"torch.return_types.{name}(\n{body})"

    ns = {"__new__": __new__, "__repr__": __repr__, "__slots__": (), "n_fields": len(fields),
          "n_sequence_fields": len(fields), "__module__": "torch.return_types",
          "__reduce__": lambda self: (cls, (tuple(self),))}
    for i, f in enumerate(fields):
        ns[f] = property(lambda self, i=i: tuple.__getitem__(self, i))
    cls = type(name, (tuple,), ns)
    return cls


max = _make("max", ("values", "indices"))  # noqa: A001
min = _make("min", ("values", "indices"))  # noqa: A001
sort = _make("sort", ("values", "indices"))
topk = _make("topk", ("values", "indices"))
kthvalue = _make("kthvalue", ("values", "indices"))
median = _make("median", ("values", "indices"))
nanmedian = _make("nanmedian", ("values", "indices"))
mode = _make("mode", ("values", "indices"))
var_mean = _make("var_mean", ("var", "mean"))  # PyTorch returns a plain tuple; kept for clarity
std_mean = _make("std_mean", ("std", "mean"))
cummax = _make("cummax", ("values", "indices"))
cummin = _make("cummin", ("values", "indices"))
aminmax = _make("aminmax", ("min", "max"))
