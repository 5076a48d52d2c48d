# hostile: checkpoints whose pickle calls os.system / eval / subprocess (weights_only default and True,
#          torch.load and torch.set_rng_state); none may run: the marker file must never appear.
#          weights_only=False is the user's trust in the file: it loads what PyTorch loads, so there the
#          payload runs, as under PyTorch (a marker of its own says so).
# expect-exit: 0
# expect-stdout: default: UnpicklingError Weights only load failed. This file can still be loaded, to do so you have two options, do those steps only if you trust the source of the checkpoint.
# expect-stdout: default names: Trying to load unsupported GLOBAL posix.system whose module posix is blocked.
# expect-stdout: weights_only=True: UnpicklingError Weights only load failed. This file can still be loaded, to do so you have two options, do those steps only if you trust the source of the checkpoint.
# expect-stdout: eval payload: refused builtins.eval
# expect-stdout: popen payload: refused subprocess.Popen
# expect-stdout: legacy: UnpicklingError
# expect-stdout: set_rng_state: RuntimeError Expected either a CPUGeneratorImplStateLegacy of size 5048 or a CPUGeneratorImplState of size 5056 but found the input RNG state size to be 72
# expect-stdout: marker absent: True
# expect-stdout: real weights still load: True
# expect-stdout: weights_only=False: loaded {'weight': [1.0, 2.0], 'x': 0}
# expect-stdout: trusted payload ran, as under PyTorch: True
import io
import os
import pickle
import subprocess
import tempfile
import zipfile

import torch

marker = os.path.join(tempfile.mkdtemp(), "payload_ran")


class Payload:
    def __init__(self, fn, arg):
        self.fn, self.arg = fn, arg

    def __reduce__(self):
        return (self.fn, (self.arg,))


def checkpoint(payload):
    """A zip checkpoint in PyTorch's layout whose data.pkl holds the payload next to a real tensor."""
    data = pickle.dumps({"weight": [1.0, 2.0], "x": payload}, protocol=2)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("archive/data.pkl", data)
        z.writestr("archive/version", "3\n")
    buf.seek(0)
    return buf


def attempt(label, payload, **kw):
    """Prints the refusal's type and first line (for the foreign-callable payloads: just the global named)."""
    try:
        torch.load(checkpoint(payload), **kw)
        print(f"{label}: loaded (payload may have run)")
        return ""
    except Exception as e:  # noqa: BLE001 - any refusal is fine; the marker decides
        msg = str(e)
        first = msg.splitlines()[0].rstrip()
        if label.endswith("payload"):
            print(f"{label}: refused {msg.split('GLOBAL ')[1].split()[0].rstrip(':')}")
        else:
            print(f"{label}: {type(e).__name__} {first}")
        return msg


msg = attempt("default", Payload(os.system, f"touch {marker}"))
print("default names:", [l.strip() for l in msg.splitlines() if "GLOBAL" in l][0].split("error: ")[-1])
attempt("weights_only=True", Payload(os.system, f"touch {marker}"), weights_only=True)
attempt("eval payload", Payload(eval, f"open({marker!r}, 'w').close()"))
attempt("popen payload", Payload(subprocess.Popen, ["touch", marker]), weights_only=True)

# A legacy (non-zip) pickle is refused too, and random state is not a pickle any more.
try:
    torch.load(io.BytesIO(pickle.dumps(Payload(os.system, f"touch {marker}"))))
except Exception as e:  # noqa: BLE001
    print("legacy:", type(e).__name__)
state = torch.tensor(list(pickle.dumps(Payload(os.system, f"touch {marker}"))), dtype=torch.uint8)
try:
    torch.set_rng_state(state)
    print("set_rng_state: accepted")
except Exception as e:  # noqa: BLE001
    print("set_rng_state:", type(e).__name__, e)

print("marker absent:", not os.path.exists(marker))
buf = io.BytesIO()
torch.save({"w": torch.arange(4.0)}, buf)
buf.seek(0)
print("real weights still load:", torch.equal(torch.load(buf)["w"], torch.arange(4.0)))

# weights_only=False: the user trusts the file; torch.load runs its pickle as PyTorch's does.
trusted = os.path.join(os.path.dirname(marker), "trusted_ran")
print("weights_only=False: loaded", torch.load(checkpoint(Payload(os.system, f"touch {trusted}")), weights_only=False))
print("trusted payload ran, as under PyTorch:", os.path.exists(trusted))
