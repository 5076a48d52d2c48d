# torch.utils.benchmark on simulated CUDA devices: each timed block is synchronised (as PyTorch's Timer does
# when CUDA exists); a block that did device work is measured on the modelled clock (deterministic, labelled
# "Simulated CUDA"), so the Measurement's median is the modelled time; pin_memory()'s host copy adds its
# measured time (a pin then a copy costs both, as in the pinned-memory tutorial); a block that copies nothing
# keeps its wall time; the host's wall times are kept in host_times.
import torch
import torch.utils.benchmark as benchmark

x = torch.ones(1024, 1024, device="cuda")  # 4 MiB
h = torch.ones(1024, 1024).pin_memory()
d2h = benchmark.Timer("x.cpu()", globals={"x": x}, label="copies", description="D2H 4 MiB").timeit(5)
h2d = benchmark.Timer("h.to('cuda', non_blocking=True)", globals={"h": h}, label="copies",
                      description="H2D pinned").blocked_autorange(min_run_time=0.01)
cpu = benchmark.Timer("a + a", setup="a = torch.ones(4)", label="copies", description="cpu").timeit(5)
p = torch.ones(1024, 1024)  # pageable
pin = benchmark.Timer("p.pin_memory()", globals={"p": p}).timeit(5)
pin_h2d = benchmark.Timer("p.pin_memory().to('cuda', non_blocking=True)", globals={"p": p}).timeit(5)
print("pin_memory() timed by its host copy:", pin.simulated_median is not None and pin.simulated_median > 0,
      "| labelled:", "Simulated CUDA:" in repr(pin),
      "| pin then copy costs more than the copy:", pin_h2d.median > h2d.median)
for m in (d2h, h2d, cpu):
    sim = m.simulated_median
    print(m.description, "simulated us per run:", None if sim is None else round(sim * 1e6, 1),
          "| labelled:", "Simulated CUDA:" in repr(m), "| time > 0:", m.median > 0,
          "| median is modelled:", sim is not None and sim > 0 and m.median == sim,
          "| host times:", m.host_times is not None and all(t > 0 for t in m.host_times))
print([l for l in repr(d2h).splitlines() if "Simulated" in l][0])
print(str(benchmark.Compare([d2h, h2d, cpu])).splitlines()[-1])
