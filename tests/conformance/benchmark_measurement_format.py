# torch.utils.benchmark's printing from fixed times: Measurement repr (one and many runs, IQR warnings, setup and
# multi-line stmts), its statistics, select_unit, Compare tables (threads, envs, missing cells, trimmed figures).
import torch.utils.benchmark as benchmark
from torch.utils.benchmark import Measurement, TaskSpec


def show(m):
    print("\n".join(repr(m).splitlines()[1:]))


spec = TaskSpec(stmt="x @ y", setup="x = torch.ones(8)", label="matmul", sub_label="8", description="cpu")
one = Measurement(number_per_run=100, raw_times=[0.0123], task_spec=spec)
show(one)
many = Measurement(10, [1e-4, 1.1e-4, 1.2e-4, 0.9e-4, 1.05e-4, 3e-4], spec)
show(many)
print(round(many.median, 12), round(many.mean, 12), round(many.iqr, 12), many.significant_figures, many.has_warnings)
print(many.title, "|", many.as_row_name, "|", many.env, "|", many.stmt, many.num_threads)
steady = Measurement(1, [2e-3, 2.001e-3, 2.002e-3, 1.999e-3], TaskSpec(stmt="a\nb", setup="s1\ns2"))
show(steady)
print(steady.meets_confidence(), steady.significant_figures)
for t in (3e-9, 4.5e-7, 2e-5, 0.5, 12.0):
    print(t, benchmark.select_unit(t))

results = []
for threads in (1, 2):
    for sub, base in (("small", 1e-5), ("large", 1e-3)):
        for desc, f in (("mul", 1.0), ("bmm", 2.5)):
            t = base * f / threads
            results.append(Measurement(1, [t, t * 1.01, t * 0.99, t * 1.02],
                                       TaskSpec(stmt="f(x)", setup="", label="dot", sub_label=sub,
                                                description=desc, num_threads=threads)))
results.append(Measurement(1, [5e-6], TaskSpec(stmt="g(x)", setup="", label="other", description="only")))
c = benchmark.Compare(results)
c.print()
c.trim_significant_figures()
c.print()
envs = [Measurement(1, [1e-3 * (i + 1)] * 4, TaskSpec(stmt="h()", setup="", label="envs", sub_label="r",
                                                      description="d", env=e)) for i, e in enumerate(("A", "BB"))]
benchmark.Compare(envs).print()
try:
    benchmark.Compare([1])
except ValueError as e:
    print("ValueError:", e)
try:
    benchmark.Timer("x", global_setup="y")
except ValueError as e:
    print("ValueError:", e)
try:
    benchmark.Timer(stmt=lambda: 1)
except ValueError as e:
    print("ValueError:", e)
