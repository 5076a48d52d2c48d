# hostile: a daemon thread copies a tensor to CUDA while the main thread is inside model.to("cuda"), and
# makes a tensor while the main thread is inside a forward: the thread's transfers keep their own owner and
# its tensor is not an activation; the module's copies are the module's. Owner and role travel with each
# copy, per thread (contextvars), not as state shared in the Runtime.
# expect-exit: 0
# expect-stdout: thread copy owners: ['batch', 'batch']
# expect-stdout: module copy owners: ['model.bias', 'model.weight']
# expect-stdout: thread sees no module move: ('', 'tensor')
# expect-stdout: made during the main thread's forward: tensor
# expect-stdout: the forward's own output: activation
# expect-transfers: 4
import threading

import _devicescope_C
import torch
import devicescope.engine as dse
from torch import nn

inside_move = threading.Event()
thread_done = threading.Event()


class Held(nn.Linear):
    """Holds the main thread inside Module._apply (owner hint set to its last parameter) until the
    thread has made its copies."""

    def _apply(self, fn, recurse=True):
        out = super()._apply(fn, recurse)
        inside_move.set()
        thread_done.wait(60)
        return out


class WaitsInForward(nn.Module):
    """Holds the main thread inside its forward (new storages are activations there) until the thread has
    made its tensor."""

    def forward(self, x):
        y = x * 2
        inside_forward.set()
        thread_done.wait(60)
        return y


model = Held(4, 4)
batch = torch.ones(8, 4)
_devicescope_C.tag(batch._impl, "tensor", "batch")
seen = {}


def copier():
    inside_move.wait(60)
    seen["origin"] = _devicescope_C.copy_origin()
    seen["first"] = batch.cuda()
    seen["second"] = batch.to("cuda:0", non_blocking=True)
    thread_done.set()


def maker():
    inside_forward.wait(60)
    seen["made"] = torch.ones(3)
    thread_done.set()


t = threading.Thread(target=copier, daemon=True)
t.start()
model.to("cuda")
t.join(60)
owners = [x["owner"] for x in dse.transfers()]
print("thread copy owners:", sorted(o for o in owners if o == "batch"))
print("module copy owners:", sorted(o for o in owners if o.startswith("model")))
print("thread sees no module move:", seen["origin"])

inside_forward = threading.Event()
thread_done.clear()
t = threading.Thread(target=maker, daemon=True)
t.start()
out = WaitsInForward()(torch.ones(2))
t.join(60)
print("made during the main thread's forward:", seen["made"]._impl.storage_role)
print("the forward's own output:", out._impl.storage_role)
