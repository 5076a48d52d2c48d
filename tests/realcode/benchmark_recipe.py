# source: https://pytorch.org/tutorials/recipes/recipes/benchmark.html (PyTorch Benchmark recipe)
# changed: inputs 1000x64 instead of 10000x64, min_run_time 0.05 s instead of 1 s, the Compare sweep cut to
#          sizes [1, 64] x [64, 256] and threads [1, 4]; the Callgrind and Fuzzer sections left out; checks at the end
#          (the two implementations agree, measurements have PyTorch's fields and print in its layout).
# reference: real
import timeit
from itertools import product

import torch
import torch.utils.benchmark as benchmark


def batched_dot_mul_sum(a, b):
    '''Computes batched dot by multiplying and summing'''
    return a.mul(b).sum(-1)


def batched_dot_bmm(a, b):
    '''Computes batched dot by reducing to ``bmm``'''
    a = a.reshape(-1, 1, a.shape[-1])
    b = b.reshape(-1, b.shape[-1], 1)
    return torch.bmm(a, b).flatten(-3)


x = torch.randn(1000, 64)
assert batched_dot_mul_sum(x, x).allclose(batched_dot_bmm(x, x))

# 2. Benchmarking with timeit.Timer
t0 = timeit.Timer(stmt='batched_dot_mul_sum(x, x)', setup='from __main__ import batched_dot_mul_sum',
                  globals={'x': x})
t1 = timeit.Timer(stmt='batched_dot_bmm(x, x)', setup='from __main__ import batched_dot_bmm', globals={'x': x})
print(f'mul_sum(x, x):  {t0.timeit(20) / 20 * 1e6:>5.1f} us')
print(f'bmm(x, x):      {t1.timeit(20) / 20 * 1e6:>5.1f} us')

# 3. Benchmarking with torch.utils.benchmark.Timer
t0 = benchmark.Timer(stmt='batched_dot_mul_sum(x, x)', setup='from __main__ import batched_dot_mul_sum',
                     globals={'x': x})
t1 = benchmark.Timer(stmt='batched_dot_bmm(x, x)', setup='from __main__ import batched_dot_bmm',
                     globals={'x': x})
m0 = t0.timeit(20)
m1 = t1.timeit(20)
print(m0)
print(m1)

# 4. Benchmarking with Blocked Autorange
m0 = t0.blocked_autorange(min_run_time=0.05)
m1 = t1.blocked_autorange(min_run_time=0.05)
print(m0)
print(m1)
print(f"Mean:   {m0.mean * 1e6:6.2f} us")
print(f"Median: {m0.median * 1e6:6.2f} us")

# 5. Comparing benchmark results
results = []
sizes = [1, 64]
for b, n in product(sizes, [64, 256]):
    label = 'Batched dot'
    sub_label = f'[{b}, {n}]'
    x = torch.ones((b, n))
    for num_threads in [1, 4]:
        results.append(benchmark.Timer(
            stmt='batched_dot_mul_sum(x, x)', setup='from __main__ import batched_dot_mul_sum',
            globals={'x': x}, num_threads=num_threads, label=label, sub_label=sub_label,
            description='mul/sum',
        ).blocked_autorange(min_run_time=0.05))
        results.append(benchmark.Timer(
            stmt='batched_dot_bmm(x, x)', setup='from __main__ import batched_dot_bmm',
            globals={'x': x}, num_threads=num_threads, label=label, sub_label=sub_label,
            description='bmm',
        ).blocked_autorange(min_run_time=0.05))

compare = benchmark.Compare(results)
compare.print()
compare.trim_significant_figures()
compare.colorize()
table = str(compare)
print(table)

# Checks of what it measured.
assert m0.median > 0 and m0.mean > 0 and m0.iqr >= 0 and len(m0.times) >= 1
assert m0.number_per_run >= 1 and m0.stmt == 'batched_dot_mul_sum(x, x)' and m0.num_threads == 1
assert "measurement" in repr(m0) and "1 thread" in repr(m0)
plain = [l for l in str(benchmark.Compare(results)).splitlines()]
assert plain[0].startswith("[") and "Batched dot" in plain[0], plain
assert "mul/sum" in plain[1] and "bmm" in plain[1], plain
assert any(l.startswith("1 threads: ") for l in plain) and any(l.startswith("4 threads: ") for l in plain), plain
assert sum("[64, 256]" in l for l in plain) == 2, plain
assert plain[-1].startswith("Times are in "), plain
print("checks passed")
