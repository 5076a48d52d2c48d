# Tensor printing with PyTorch's rules (torch/_tensor_str.py): precision 4, integer-valued floats as
# `1.`, scientific notation when the magnitudes span more than 1000x (or exceed 1e8 / go below 1e-4),
# right-aligned columns, `...` summaries above 1000 elements, line width 80, and the suffixes
# device=/dtype=/grad_fn=/requires_grad=. Values are read once into numpy and formatted from there.
import math

import numpy as np


class _PrintOptions:
    precision = 4
    threshold = 1000
    edgeitems = 3
    linewidth = 80
    sci_mode = None


PRINT_OPTS = _PrintOptions()


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None, profile=None,
                     sci_mode=None):
    if profile is not None:
        presets = {"default": (4, 1000, 3, 80), "short": (2, 1000, 2, 80), "full": (4, math.inf, 3, 80)}
        PRINT_OPTS.precision, PRINT_OPTS.threshold, PRINT_OPTS.edgeitems, PRINT_OPTS.linewidth = presets[profile]
    if precision is not None:
        PRINT_OPTS.precision = precision
    if threshold is not None:
        PRINT_OPTS.threshold = threshold
    if edgeitems is not None:
        PRINT_OPTS.edgeitems = edgeitems
    if linewidth is not None:
        PRINT_OPTS.linewidth = linewidth
    PRINT_OPTS.sci_mode = sci_mode


def get_printoptions():
    return {"precision": PRINT_OPTS.precision, "threshold": PRINT_OPTS.threshold,
            "edgeitems": PRINT_OPTS.edgeitems, "linewidth": PRINT_OPTS.linewidth, "sci_mode": PRINT_OPTS.sci_mode}


class _Formatter:
    """Decides one width and one notation for every element shown (from the summarized values)."""

    def __init__(self, values, floating):
        self.floating = floating
        self.int_mode = True
        self.sci_mode = False
        self.max_width = 1
        flat = values.reshape(-1)
        p = PRINT_OPTS.precision
        if not floating:
            for v in flat.tolist():
                self.max_width = max(self.max_width, len(str(v)))
        else:
            finite = flat[np.isfinite(flat) & (flat != 0)]
            if finite.size:
                absv = np.abs(finite.astype(np.float64))
                lo, hi = float(absv.min()), float(absv.max())
                self.int_mode = bool(np.all(finite == np.ceil(finite)))
                items = finite.astype(np.float64).tolist()
                if self.int_mode:
                    if hi / lo > 1000.0 or hi > 1.0e8:
                        self.sci_mode = True
                        self.max_width = max(len(f"{v:.{p}e}") for v in items)
                    else:
                        self.max_width = max(len(f"{v:.0f}") + 1 for v in items)
                else:
                    if hi / lo > 1000.0 or hi > 1.0e8 or lo < 1.0e-4:
                        self.sci_mode = True
                        self.max_width = max(len(f"{v:.{p}e}") for v in items)
                    else:
                        self.max_width = max(len(f"{v:.{p}f}") for v in items)
        if PRINT_OPTS.sci_mode is not None:
            self.sci_mode = PRINT_OPTS.sci_mode

    def width(self):
        return self.max_width

    def format(self, value):
        p = PRINT_OPTS.precision
        if self.floating:
            if self.sci_mode:
                s = f"{value:{self.max_width}.{p}e}"
            elif self.int_mode:
                s = f"{value:.0f}"
                if not (math.isinf(value) or math.isnan(value)):
                    s += "."
            else:
                s = f"{value:.{p}f}"
        else:
            s = str(value)
        return " " * (self.max_width - len(s)) + s


def _summarized(values):
    """The rows/columns that will be shown (edge items of every dimension)."""
    e = PRINT_OPTS.edgeitems
    if values.ndim == 0:
        return values
    if values.shape[0] > 2 * e:
        idx = list(range(e)) + list(range(values.shape[0] - e, values.shape[0]))
        values = values[idx]
    if values.ndim == 1:
        return values
    return np.stack([_summarized(v) for v in values]) if values.shape[0] else values


def _vector_str(values, indent, summarize, fmt):
    element_length = fmt.width() + 2
    per_line = max(1, int(math.floor((PRINT_OPTS.linewidth - indent) / element_length)))
    e = PRINT_OPTS.edgeitems
    items = values.tolist()
    if summarize and len(items) > 2 * e:
        data = [fmt.format(v) for v in items[:e]] + [" ..."] + [fmt.format(v) for v in items[-e:]]
    else:
        data = [fmt.format(v) for v in items]
    lines = [", ".join(data[i:i + per_line]) for i in range(0, len(data), per_line)]
    return "[" + ("," + "\n" + " " * (indent + 1)).join(lines) + "]"


def _nested_str(values, indent, summarize, fmt):
    nd = values.ndim
    if nd == 0:
        return fmt.format(values.item())
    if nd == 1:
        return _vector_str(values, indent, summarize, fmt)
    e = PRINT_OPTS.edgeitems
    n = values.shape[0]
    if summarize and n > 2 * e:
        parts = ([_nested_str(values[i], indent + 1, summarize, fmt) for i in range(e)] + ["..."] +
                 [_nested_str(values[i], indent + 1, summarize, fmt) for i in range(n - e, n)])
    else:
        parts = [_nested_str(values[i], indent + 1, summarize, fmt) for i in range(n)]
    return "[" + ("," + "\n" * (nd - 1) + " " * (indent + 1)).join(parts) + "]"


def _values_str(t, indent):
    from ._ops import _core as C
    if t._impl.numel == 0:
        return "[]"
    values = C.read(t)
    floating = t.dtype.is_floating_point
    if t.dtype._code == 2:  # half prints through float32, as PyTorch does
        values = values.astype(np.float32)
    summarize = t._impl.numel > PRINT_OPTS.threshold
    shown = _summarized(values) if summarize else values
    fmt = _Formatter(shown, floating)
    return _nested_str(values, indent, summarize, fmt)


def _add_suffixes(text, suffixes, indent):
    out = [text]
    last_line_len = len(text) - text.rfind("\n") + 1
    for s in suffixes:
        if last_line_len + len(s) + 2 > PRINT_OPTS.linewidth:
            out.append(",\n" + " " * indent + s)
            last_line_len = indent + len(s)
        else:
            out.append(", " + s)
            last_line_len += len(s) + 2
    out.append(")")
    return "".join(out)


def tensor_repr(t):
    import torch
    from . import _default
    from .autograd import grad_mode
    cls = type(t)
    nn = getattr(torch, "nn", None)
    plain = cls is torch.Tensor or (nn is not None and cls is getattr(nn, "Parameter", None))
    prefix = "tensor(" if plain else f"{cls.__name__}("
    indent = len(prefix)
    suffixes = []
    dev = t.device
    if dev.type != "cpu":
        # Note [Print tensor device]: shown unless it is the default tensor type's device (always cpu here).
        suffixes.append("device='" + str(dev) + "'")
    default = _default.get_default_dtype()
    has_default_dtype = t.dtype in (default, torch.int64, torch.bool)
    prev = grad_mode._enabled[0]
    grad_mode._enabled[0] = False
    try:
        if t._impl.is_virtual:
            suffixes.append("size=" + str(tuple(t._impl.sizes)))
            if t.dtype is not default:
                suffixes.append("dtype=" + str(t.dtype))
            suffixes.append("virtual=True")
            body = "..."
        elif t._impl.numel == 0:
            if t._impl.dim != 1:
                suffixes.append("size=" + str(tuple(t._impl.sizes)))
            if t.dtype is not default:
                suffixes.append("dtype=" + str(t.dtype))
            body = "[]"
        else:
            if not has_default_dtype:
                suffixes.append("dtype=" + str(t.dtype))
            body = _values_str(t, indent)
    finally:
        grad_mode._enabled[0] = prev
    if t._grad_fn is not None:
        suffixes.append(f"grad_fn=<{type(t._grad_fn).__name__}>")
    elif t.requires_grad:
        suffixes.append("requires_grad=True")
    return _add_suffixes(prefix + body, suffixes, indent)
