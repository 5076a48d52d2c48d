# torch.utils.benchmark on simulated CUDA devices: each timed block is synchronised (as PyTorch's Timer does
# when CUDA exists), the host's wall time is the measurement, and the modelled device time of the copies the
# statement made (the simulated clock, deterministic) is kept per run and printed labelled "Simulated CUDA".
import torch
import torch.utils.benchmark as benchmark

x = torch.ones(1024, 1024, device="cuda")  # 4 MiB
h = torch.ones(1024, 1024).pin_memory()
d2h = benchmark.Timer("x.cpu()", globals={"x": x}, label="copies", description="D2H 4 MiB").timeit(5)
h2d = benchmark.Timer("h.to('cuda', non_blocking=True)", globals={"h": h}, label="copies",
                      description="H2D pinned").blocked_autorange(min_run_time=0.01)
cpu = benchmark.Timer("a + a", setup="a = torch.ones(4)", label="copies", description="cpu").timeit(5)
for m in (d2h, h2d, cpu):
    sim = m.simulated_median
    print(m.description, "simulated us per run:", None if sim is None else round(sim * 1e6, 1),
          "| labelled:", "Simulated CUDA:" in repr(m), "| host time > 0:", m.median > 0)
print([l for l in repr(d2h).splitlines() if "Simulated" in l][0])
print(str(benchmark.Compare([d2h, h2d, cpu])).splitlines()[-1])
