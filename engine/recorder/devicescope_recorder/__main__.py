"""python3 -m devicescope_recorder [--out FILE] [--] SCRIPT [ARGS...]: runs SCRIPT as __main__ under the recorder.

Everything after SCRIPT is the script's own (as with `python3 SCRIPT ARGS...`). The script's exit status and
traceback are its own; the recording is written whatever way it ends and keeps the script, its arguments
and its exit status. Under torchrun (`torchrun ... -m devicescope_recorder train.py`, RANK set) each rank
writes FILE with ".rank{RANK}" before the extension.
"""
import os
import signal
import sys
import traceback
import types

USAGE = "usage: python3 -m devicescope_recorder [--out FILE] [--] SCRIPT [ARGS...]"


def usage_error(message):
    print(USAGE + "\ndevicescope_recorder: error: " + message, file=sys.stderr)
    sys.exit(2)


def parse(argv):
    out, i = None, 0
    while i < len(argv):
        a = argv[i]
        if a == "--":
            i += 1
            break
        if a in ("-h", "--help"):
            print(USAGE + "\n\n" + __doc__.split("\n", 2)[2].strip() +
                  "\n\noptions:\n  --out FILE  the recording (default: SCRIPT's name + .devicescope.json)")
            sys.exit(0)
        if a == "--out":
            if i + 1 >= len(argv):
                usage_error("argument --out: expected one argument")
            out, i = argv[i + 1], i + 2
        elif a.startswith("--out="):
            out, i = a[6:], i + 1
        elif a.startswith("-"):
            usage_error("unrecognized arguments: %s" % a)
        else:
            break
    if i >= len(argv):
        usage_error("the following arguments are required: SCRIPT")
    script = argv[i]
    if out is None:
        out = os.path.splitext(os.path.basename(script))[0] + ".devicescope.json"
    return out, script, argv[i + 1:]


def exit_status(code):
    """The process exit status python gives SystemExit(code)."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    return 1  # a message: python prints it and exits 1


def main():
    out, script, args = parse(sys.argv[1:])
    argv0 = script  # sys.argv[0] is the path as the user wrote it
    try:
        with open(script, "rb") as f:
            source = f.read()
    except OSError as e:
        print("devicescope_recorder: can't open file %r: [Errno %d] %s" % (script, e.errno, e.strerror), file=sys.stderr)
        sys.exit(2)  # python3's own status for a script it cannot open
    from .session import Session, ended_by

    path = os.path.abspath(script)  # as python itself gives __main__.__file__ and tracebacks since 3.9
    code = compile(source, path, "exec")
    main_module = types.ModuleType("__main__")
    main_module.__file__ = path
    main_module.__builtins__ = __builtins__
    sys.modules["__main__"] = main_module
    sys.argv = [argv0] + args
    sys.path[0] = os.path.dirname(path)

    # SIGTERM (a scheduler, `devicescope record` passing one on) ends the script like Ctrl+C ends it:
    # by an exception, so the recording is still written. The script may install its own handler.
    def terminated(signum, frame):
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, terminated)
    session = Session(out, main_module.__dict__, argv0, args)
    try:
        session.start()
    except ImportError as e:  # no torch, or one older than 1.13
        print("devicescope_recorder: %s" % e, file=sys.stderr)
        sys.exit(2)
    status, failure, how = 0, None, ""
    try:
        exec(code, main_module.__dict__)
    except SystemExit as e:
        status = exit_status(e.code)
        if isinstance(e.code, str):
            how = e.code
    except BaseException as e:  # KeyboardInterrupt too: the recording is still written
        failure, how = e, ended_by(e)
        status = 128 + signal.SIGINT if isinstance(e, KeyboardInterrupt) else 1
    try:
        written = session.stop(status, how)
        if not os.environ.get("DEVICESCOPE_RECORD_CLI"):  # else `devicescope record` says it
            print("devicescope_recorder: recording written to %s" % written, file=sys.stderr)
    except Exception:
        print("devicescope_recorder: could not write the recording:", file=sys.stderr)
        traceback.print_exc()
        if failure is None and not status:
            status = 3
    if failure is not None:
        # The script's own traceback, from its first frame (this runner's frame is left out).
        traceback.print_exception(type(failure), failure, failure.__traceback__.tb_next)
        sys.stderr.flush()
        if isinstance(failure, KeyboardInterrupt):
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGINT)  # die of SIGINT, as python itself does (exit 130 in a shell)
        sys.exit(1)
    if isinstance(how, str) and how and status == 1:
        print(how, file=sys.stderr)  # sys.exit("message"): python prints the message
        sys.exit(1)
    sys.exit(status)


if __name__ == "__main__":
    main()
