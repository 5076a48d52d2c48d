"""DeviceScope's recorder for real PyTorch programs: pure Python, needs only the user's torch (1.13 or later).

    python3 -m devicescope_recorder --out run.json train.py [ARGS...]

runs train.py as __main__ and writes a DeviceScope recording (Chrome trace JSON) that the app,
`devicescope inspect` and `devicescope diff` open, on this machine or another. For code that cannot be
launched differently:

    import devicescope_recorder
    with devicescope_recorder.record("run.json"):
        train()

See recorder.py for what is recorded and how, allocator.py for the CUDA allocator's part.
"""
import sys

__version__ = "0.1.0"
__all__ = ["record", "__version__"]


class record:
    """Records what runs inside the `with` block into PATH (under torchrun: PATH.rankN.json per rank).

    Roots and optimizers are named after the calling module's global variables (as for a script run by
    `python -m devicescope_recorder`). The recording is written when the block ends, also by an exception,
    which then goes on; its metadata keep sys.argv and how the block ended (exit status 0, or 1 and the
    exception)."""

    def __init__(self, path="devicescope.json"):
        self.path = str(path)
        self.session = None
        self.written = None

    def __enter__(self):
        if sys.version_info < (3, 8):
            raise RuntimeError("devicescope_recorder needs Python 3.8 or later")
        from .session import Session
        caller = sys._getframe(1).f_globals
        self.session = Session(self.path, caller, sys.argv[0] if sys.argv else "", sys.argv[1:])
        self.session.start()
        return self

    def __exit__(self, kind, value, tb):
        from .session import ended_by
        status, how = 0, ""
        if value is not None:
            if isinstance(value, SystemExit):
                from .__main__ import exit_status
                status = exit_status(value.code)
            else:
                status, how = (130 if isinstance(value, KeyboardInterrupt) else 1), ended_by(value)
        self.written = self.session.stop(status, how)
        print("devicescope_recorder: recording written to %s" % self.written, file=sys.stderr)
        return False  # the exception, if any, goes on
