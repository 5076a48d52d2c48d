# %% lesson: The `non_blocking=True` device-to-host hazard
# | `gpu_tensor.to("cpu", non_blocking=True)` returns a CPU tensor *immediately* - before the copy has
# | happened. PyTorch allocates the result in pinned memory and queues the copy on the current CUDA stream
# | without waiting. Read the result before synchronising and you may see whatever the buffer held before the
# | copy landed.
# |
# | On a real GPU that is a race: sometimes you win, sometimes you don't. DeviceScope's simulated devices make
# | it deterministic - an unsynchronised read always sees the buffer *before* the copy (zeros) - so you can see
# | the bug every time. (`devicescope.engine` is a DeviceScope extension used only to tell the two apart.)
# requires: torch.cuda.is_available()
# verdict: FALSE | A tensor returned by `.to("cpu", non_blocking=True)` holds the data as soon as the call returns | The copy is only queued; until a synchronisation the buffer may be stale | Reading too early
# verdict: TRUE | `torch.cuda.synchronize()` (or an event) makes the non-blocking result safe to read | The host waits until the queued copy has finished | The fix: synchronise before reading
# verdict: FALSE | `non_blocking=True` is always a free speed-up | For D2H it is only safe with an explicit synchronisation; for H2D from pageable memory the host still waits while the driver stages the source | The fix: synchronise before reading

# %% step: Reading too early
# | A 4 MiB tensor of sevens on the GPU, copied back to the host without blocking, then read at once.
# ? What does `early` (read before any synchronisation) contain on DeviceScope's simulated GPU?
# - 7.0 - `.to()` returned, so the copy is done
# = 0.0 - the copy has not landed yet
# - it raises: reading an unfinished copy is an error
import torch
import devicescope.engine as dse

g = torch.full((1024, 1024), 7.0, device="cuda")
h = g.to("cpu", non_blocking=True)
early = h[0, 0].item()
print(h.device, h.is_pinned())
# expect-stdout: cpu True
# expect: early == 0.0 if dse.is_simulated() else early in (0.0, 7.0)
# expect: dse.last_transfer()["dst"] == "pinned" and dse.last_transfer()["non_blocking"]
# > The host read the pinned buffer while the GPU's copy was still queued. No error, no warning: just wrong
# > numbers. (On a real GPU the result is a race: whether the copy has landed depends on its size, the link and
# > what else the stream is doing, so the same script can print right numbers one run and stale ones the next.)

# %% step: The fix: synchronise before reading
# | Same `h`, nothing else changed: the host now waits for the device before it reads.
# ? After `torch.cuda.synchronize()`, what does `h[0, 0]` hold?
# - still 0.0 - the buffer was read too early once, so it stays stale
# = 7.0 - the queued copy has finished and written the pinned buffer
# - it raises: `h` must be copied again after a stale read
torch.cuda.synchronize()
late = h[0, 0].item()
print(late, bool((h == 7.0).all()))
# expect-stdout: 7.0 True
# > `torch.cuda.synchronize()` waits for all queued work on the device. Cheaper alternatives wait for just
# > this copy: record an event right after it and `event.synchronize()` before reading, or use the default
# > `non_blocking=False` when you need the value right away.

# %% step: Synchronising on an event
g2 = torch.full((1024, 1024), 3.0, device="cuda")
h2 = g2.to("cpu", non_blocking=True)
done = torch.cuda.Event()
done.record()
done.synchronize()
print(h2[0, 0].item(), done.query())
# expect-stdout: 3.0 True
# > The event marks a point in the stream after the copy; `synchronize()` waits for that point only, so
# > independent work queued later keeps running.

# %% step: Blocking copies need nothing
h3 = g2.to("cpu")
print(h3[0, 0].item(), h3.is_pinned())
# expect-stdout: 3.0 False
# > The default blocking copy waits before returning, into ordinary pageable memory. Use `non_blocking=True`
# > for device-to-host copies only when you have other work to overlap - and always synchronise before reading.
