# SEMANTICS 2 (streams): Stream.wait_event / wait_stream and Event.wait only make the GPU stream wait
# (cudaStreamWaitEvent); the host returns at once. A 256 MiB pinned H2D on a side stream takes milliseconds
# (about 5 ms on PCIe 5, 10-11 ms on PCIe 4 and on the simulated pcie4-x16 link), so right after
# current_stream().wait_event(ev) the event has not happened: query() is False. The wait still orders the
# GPU: a D2H queued on the current stream afterwards reads the finished copy, and an event recorded there
# afterwards happens only when the side copy ends (so elapsed_time spans the copy).
import torch

n = 64 * 1024 * 1024  # float32: 256 MiB
host = torch.empty(n, pin_memory=True).fill_(2.0)
side = torch.cuda.Stream()
start = torch.cuda.Event(enable_timing=True)
end = torch.cuda.Event(enable_timing=True)
ev = torch.cuda.Event()

start.record()
with torch.cuda.stream(side):
    dev = host.to('cuda', non_blocking=True)
    ev.record()
torch.cuda.current_stream().wait_event(ev)  # returns at once: the host is not blocked
print(ev.query(), side.query())  # the copy is still running
end.record()  # on the current stream, after its wait: happens when the side copy ends
back = dev.to('cpu', non_blocking=True)  # queued on the current stream: after the wait, so after the copy
print(back.is_pinned())

torch.cuda.synchronize()
print(ev.query(), side.query(), torch.cuda.current_stream().query())
print(back[0].item(), back[-1].item(), bool((back == 2.0).all()))
print(start.elapsed_time(end) > 0.1)  # ms: the end event waited for the 256 MiB copy

# Event.wait() on an event never recorded is a no-op; wait_stream records an event on the other stream.
torch.cuda.Event().wait()
side.wait_stream(torch.cuda.current_stream())
with torch.cuda.stream(side):
    again = dev.to('cpu', non_blocking=True)
torch.cuda.current_stream().wait_stream(side)
torch.cuda.current_stream().synchronize()  # waits for side's copy too, through the wait
print(again[0].item(), side.query())
