# hostile: a non-daemon thread still copying after the main script ends: python waits for it, so does
# DeviceScope (no "TypeError: expected a device"); its copies are in the exports
# expect-exit: 0
# expect-stdout: main done
# expect-stdout: thread done cuda:0
# expect-transfers: 21
import threading

import torch

main_ended = threading.Event()


def work():
    main_ended.wait()
    x = torch.ones(2)
    for _ in range(20):
        y = x.to(torch.device("cuda"))
    z = torch.zeros(3, device="cuda") + 1
    print("thread done", z.device, flush=True)


torch.ones(2).to("cuda")
threading.Thread(target=work, name="worker").start()
print("main done", flush=True)
main_ended.set()
