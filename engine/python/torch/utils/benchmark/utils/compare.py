# torch.utils.benchmark.Compare: measurements grouped by label into tables (rows: sub_label or stmt per
# thread count, columns: description), medians in one unit, laid out like PyTorch's tables.
import collections
import enum
import math

from . import common

__all__ = ["Colorize", "Compare"]

_BEST, _GOOD, _BAD, _VERY_BAD = "\033[92m", "\033[34m", "\033[2m\033[91m", "\033[31m"
_BOLD, _END = "\033[1m", "\033[0m"


class Colorize(enum.Enum):
    NONE = "none"
    COLUMNWISE = "columnwise"
    ROWWISE = "rowwise"


def _leading_digits(value):
    return int(math.ceil(math.log10(value))) if value > 0 else 1


class _Column:
    """One description's medians: a shared number format wide enough for its largest value."""

    def __init__(self, results, scale, trim, highlight):
        self.results = results
        self.scale = scale
        self.trim = trim
        self.highlight = highlight and any(r.has_warnings for r in results if r)
        digits = [_leading_digits(r.median / scale) if r else None for r in results]
        unit_digits = max(d for d in digits if d is not None)
        decimals = min(max(m.significant_figures - d, 0) for d, m in zip(digits, results) if m is not None) \
            if trim else 1
        self.width = unit_digits + decimals + (1 if decimals else 0)
        self.decimals = decimals

    def cell(self, m):
        if m is None:
            return " " * len(self.cell_value(1.0, 1, None))
        spread = m.iqr / m.median if m.has_warnings else None
        return self.cell_value(m.median / self.scale, m.significant_figures, spread)

    def cell_value(self, value, sigfigs, spread):
        if self.trim:
            value = common.trim_sigfig(value, sigfigs)
        text = f"{value:>{self.width}.{self.decimals}f}"
        if self.highlight:
            text += f"{f' (! {spread * 100:.0f}%)' if spread is not None else '':>7}"
        return text


def _colored(text, value, best):
    if value <= best * 1.01 or value <= best + 100e-9:
        return _BEST + _BOLD + text + _END * 2
    if value <= best * 1.1:
        return _GOOD + _BOLD + text + _END * 2
    if value >= best * 5:
        return _VERY_BAD + _BOLD + text + _END * 2
    if value >= best * 2:
        return _BAD + text + _END * 2
    return text


class _Table:
    def __init__(self, results, colorize, trim, highlight):
        self.results = results
        self.colorize = colorize
        self.highlight = highlight
        self.label = results[0].label
        self.unit, self.scale = common.select_unit(min(r.median for r in results))
        row_keys = common.ordered_unique((r.num_threads, r.env, r.as_row_name) for r in results)
        row_keys.sort(key=lambda k: k[:2])
        self.row_keys = row_keys
        self.col_keys = common.ordered_unique(r.description for r in results)
        grid = {(r.num_threads, r.env, r.as_row_name, r.description): r for r in results}
        self.grid = [[grid.get(k + (c,)) for c in self.col_keys] for k in row_keys]
        self.columns = [_Column([row[j] for row in self.grid], self.scale, trim, highlight)
                        for j in range(len(self.col_keys))]

    def render(self):
        envs = {r.env for r in self.results}
        render_env = len(envs) > 1
        env_len = max(len(e) for e in envs) if render_env else 0
        header = [""] + [c if c is not None else "" for c in self.col_keys]
        body, prior_threads, prior_env = [], None, None
        for (threads, env, name), row in zip(self.row_keys, self.grid):
            new_group = threads != prior_threads
            if new_group:
                prior_env = None
            env_text = f"({env})" if render_env and env != prior_env else ""
            first = "  " + env_text.ljust(env_len + 4) + name
            body.append((threads if new_group else None, [first] + [col.cell(m) for col, m in
                                                                      zip(self.columns, row)], row))
            prior_threads, prior_env = threads, env
        widths = [max(len(x) for x in col) for col in zip(header, *[cells for _, cells, _ in body])]
        lines = ["  |  ".join(h.center(w) for h, w in zip(header, widths))]
        overall = len(lines[0])
        for threads, cells, row in body:
            if threads is not None:
                lines.append(f"{threads} threads: ".ljust(overall, "-"))
            parts = [cells[0].ljust(widths[0])]
            row_best = min(m.median for m in row if m is not None)
            for j, (text, w, m) in enumerate(zip(cells[1:], widths[1:], row)):
                text = text.center(w)
                if self.colorize is not Colorize.NONE and m is not None:
                    best = row_best if self.colorize is Colorize.ROWWISE else \
                        min(r.median for r in self.columns[j].results if r is not None)
                    text = _colored(text, m.median, best)
                parts.append(text)
            lines.append("  |  ".join(parts))
        warn = self.highlight and any(r.has_warnings for r in self.results)
        sims = [r for r in self.results if r.simulated_median]
        out = (f"[{(' ' + (self.label or '') + ' ').center(overall - 2, '-')}]\n" + "\n".join(lines) +
               f"\n\nTimes are in {common.unit_to_english(self.unit)}s ({self.unit}).\n")
        if warn:
            out += "(! XX%) Measurement has high variance, where XX is the IQR / median * 100.\n"
        if sims:
            out += ("Simulated CUDA devices: times of device work above are modelled (DeviceScope's simulated clock), "
                    "plus measured host copies (pin_memory).\n")
        return out


class Compare:
    def __init__(self, results):
        self._results = []
        self.extend_results(results)
        self._trim_significant_figures = False
        self._colorize = Colorize.NONE
        self._highlight_warnings = False

    def __str__(self):
        return "\n".join(self._render())

    def extend_results(self, results):
        for r in results:
            if not isinstance(r, common.Measurement):
                raise ValueError(f"Expected an instance of `Measurement`, got {type(r)} instead.")
        self._results.extend(results)

    def trim_significant_figures(self):
        self._trim_significant_figures = True

    def colorize(self, rowwise=False):
        self._colorize = Colorize.ROWWISE if rowwise else Colorize.COLUMNWISE

    def highlight_warnings(self):
        self._highlight_warnings = True

    def print(self):
        print(str(self))

    def _render(self):
        grouped = collections.defaultdict(list)
        for r in common.Measurement.merge(self._results):
            grouped[r.label].append(r)
        return [_Table(g, self._colorize, self._trim_significant_figures, self._highlight_warnings).render()
                for g in grouped.values()]
