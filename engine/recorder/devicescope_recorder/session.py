"""One recording from start to file, shared by `python -m devicescope_recorder` and `with record(path):`.

start() installs the recorder (and the CUDA allocator's history on a GPU machine); stop() uninstalls it and
writes the recording with the run's facts in its metadata: the script, its arguments, how it ended (exit
status, and the exception or signal when there was one), the machine and torch. On a GPU the allocator's
snapshot (this package's frames stripped) is merged into the recording and written beside it as FILE.pickle.
"""
import os
import platform
import sys

DEFAULT_NAME = "devicescope.json"


def ranked(path):
    """Under torchrun (RANK set) each rank writes FILE with ".rank{RANK}" before the extension."""
    rank = os.environ.get("RANK")
    if rank is None:
        return path
    stem, ext = os.path.splitext(path)
    return "%s.rank%s%s" % (stem, rank, ext)


def machine_line(torch):
    parts = ["%s %s" % (platform.system(), platform.machine()), "torch " + torch.__version__]
    if torch.cuda.is_available():
        parts += [torch.cuda.get_device_name(i) for i in range(torch.cuda.device_count())]
    else:
        parts.append("no CUDA")
    return ", ".join(parts)


def max_entries():
    from . import allocator
    try:
        return int(os.environ.get("DEVICESCOPE_MAX_ENTRIES", allocator.DEFAULT_MAX_ENTRIES))
    except ValueError:
        return allocator.DEFAULT_MAX_ENTRIES


class Session:
    def __init__(self, out, script_globals, script, script_args):
        self.out = os.path.abspath(ranked(out))  # absolute: the script may chdir
        self.globals, self.script, self.script_args = script_globals, script, list(script_args)
        self.installed = None

    def start(self):
        torch = require_torch()
        from . import allocator, install, recorder
        self.torch = torch
        self.history = None
        if torch.cuda.is_available():
            try:
                self.history = allocator.start_history(torch, max_entries())
            except Exception as e:  # no history: the recording is still made, without the allocator's blocks
                print("devicescope_recorder: the allocator's history is off (%s)" % e, file=sys.stderr)
        self.recorder = recorder.Recorder(self.globals)
        self.installed = install.Installed(self.recorder)

    def stop(self, exit_status, ended_by):
        """Uninstalls and writes the recording; returns its path. exit_status: the process's exit status (int)
        as the script left it; ended_by: "" for a normal end, else what ended it ("ValueError: ...")."""
        from . import allocator, recorder
        torch = self.torch
        if self.installed is not None:
            self.installed.uninstall()
            self.installed = None
        meta = {"devicescope_version": os.environ.get("DEVICESCOPE_VERSION", "recorder"),
                "backend": "cuda" if torch.cuda.is_available() else "cpu", "link_profile": "",
                "machine": machine_line(torch), "rank": os.environ.get("RANK"),
                "world_size": os.environ.get("WORLD_SIZE"), "local_rank": os.environ.get("LOCAL_RANK"),
                "script": self.script, "script_args": self.script_args, "exit_status": exit_status,
                "ended_by": ended_by}
        snapshot = None
        if self.history is not None:
            try:
                snapshot = allocator.take(torch)
                allocator.strip_own_frames(snapshot)
            except Exception as e:  # the recording is still written, without the allocator's blocks
                print("devicescope_recorder: no allocator snapshot (%s)" % e, file=sys.stderr)
                snapshot = None
            allocator.stop_history(torch, self.history)
        recorder.finish(self.recorder, self.out, meta, snapshot)
        if snapshot is not None:
            import pickle
            with open(self.out + ".pickle", "wb") as f:
                pickle.dump(snapshot, f)
        return self.out


def require_torch():
    """torch, or an ImportError that says what is needed (torch is the user's own: never a pip dependency)."""
    try:
        import torch
    except ImportError as e:
        raise ImportError("devicescope_recorder needs PyTorch 1.13 or later in this Python (%s): %s. Install "
                          "it (https://pytorch.org/get-started/locally/) or run the interpreter that has it"
                          % (sys.executable, e)) from None
    major, minor = (int("".join(c for c in part if c.isdigit()) or 0) for part in torch.__version__.split(".")[:2])
    if (major, minor) < (1, 13):
        raise ImportError("devicescope_recorder needs PyTorch 1.13 or later; %s has torch %s"
                          % (sys.executable, torch.__version__))
    return torch


def ended_by(failure):
    """What an exception that ended the run says, one line."""
    text = str(failure).splitlines()[0] if str(failure) else ""
    return type(failure).__name__ + (": " + text if text else "")
