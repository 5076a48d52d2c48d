"""python3 -m devicescope_recorder [--out FILE] -- SCRIPT [ARGS...]: runs SCRIPT as __main__ under the recorder.

The script's exit code and traceback are its own; the recording is written whatever way it ends. Under
torchrun (RANK set) each rank writes FILE with ".rank{RANK}" before the extension.
"""
import os
import platform
import sys
import traceback
import types


def ranked(path):
    rank = os.environ.get("RANK")
    if rank is None:
        return path
    stem, ext = os.path.splitext(path)
    return "%s.rank%s%s" % (stem, rank, ext)


def parse(argv):
    out, i = None, 0
    while i < len(argv):
        a = argv[i]
        if a == "--":
            i += 1
            break
        if a == "--out" and i + 1 < len(argv):
            out, i = argv[i + 1], i + 2
        elif a.startswith("--out="):
            out, i = a[6:], i + 1
        elif a.startswith("-"):
            sys.exit("devicescope_recorder: unknown option %s (usage: --out FILE -- SCRIPT [ARGS...])" % a)
        else:
            break
    if i >= len(argv):
        sys.exit("devicescope_recorder: no script (usage: --out FILE -- SCRIPT [ARGS...])")
    script = argv[i]
    if out is None:
        out = os.path.splitext(os.path.basename(script))[0] + ".devicescope.json"
    return out, script, argv[i + 1:]


def machine_line(torch):
    parts = ["%s %s" % (platform.system(), platform.machine()), "torch " + torch.__version__]
    if torch.cuda.is_available():
        parts += [torch.cuda.get_device_name(i) for i in range(torch.cuda.device_count())]
    else:
        parts.append("no CUDA")
    return ", ".join(parts)


def main():
    out, script, args = parse(sys.argv[1:])
    argv0 = script  # sys.argv[0] is the path as the user wrote it
    out = ranked(out)
    import torch
    from . import recorder as rec

    script = os.path.abspath(script)  # as python itself gives __main__.__file__ and tracebacks since 3.9
    with open(script, "rb") as f:
        code = compile(f.read(), script, "exec")
    main_module = types.ModuleType("__main__")
    main_module.__file__ = script
    main_module.__builtins__ = __builtins__
    sys.modules["__main__"] = main_module
    sys.argv = [argv0] + args
    sys.path[0] = os.path.dirname(os.path.abspath(script))

    snapshot = torch.cuda.is_available()
    if snapshot:
        try:
            torch.cuda.memory._record_memory_history(True)
        except Exception:  # an older or newer signature: the snapshot still has the segments
            pass
    # SIGTERM (a scheduler, `devicescope record` passing one on) ends the script like Ctrl+C ends it:
    # by an exception, so the recording is still written. The script may install its own handler.
    import signal

    def terminated(signum, frame):
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, terminated)
    recorder = rec.Recorder(main_module.__dict__)
    installed = rec.Installed(recorder)
    code_out, failure = 0, None
    try:
        exec(code, main_module.__dict__)
    except SystemExit as e:
        code_out = e.code
    except BaseException as e:  # KeyboardInterrupt too: the recording is still written
        failure = e
    finally:
        installed.uninstall()
    meta = {"devicescope_version": os.environ.get("DEVICESCOPE_VERSION", "recorder"),
            "backend": "cuda" if torch.cuda.is_available() else "cpu", "link_profile": "",
            "machine": machine_line(torch), "rank": os.environ.get("RANK"),
            "world_size": os.environ.get("WORLD_SIZE"), "local_rank": os.environ.get("LOCAL_RANK")}
    try:
        rec.finish(recorder, out, meta)
        if snapshot:
            import pickle
            with open(out + ".pickle", "wb") as f:
                pickle.dump(torch.cuda.memory._snapshot(), f)
        if not os.environ.get("DEVICESCOPE_RECORD_CLI"):  # else `devicescope record` says it
            print("devicescope_recorder: recording written to %s" % out, file=sys.stderr)
    except Exception:
        print("devicescope_recorder: could not write the recording:", file=sys.stderr)
        traceback.print_exc()
        if failure is None and not code_out:
            code_out = 3
    if failure is not None:
        # The script's own traceback, from its first frame (this runner's frame is left out).
        traceback.print_exception(type(failure), failure, failure.__traceback__.tb_next)
        sys.stderr.flush()
        if isinstance(failure, KeyboardInterrupt):
            import signal
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGINT)  # die of SIGINT, as python itself does (exit 130 in a shell)
        sys.exit(1)
    sys.exit(code_out)


if __name__ == "__main__":
    main()
