"""Interpreter-side half of DeviceScope's PythonSession (engine/python/python_session.cpp).

Runs user code as __main__ (whole files, one top-level statement at a time, console lines) and turns
exceptions into what `python script.py` would print, hiding DeviceScope's own frames. Every entry point
returns a plain tuple so the C++ side never has to handle a Python exception itself.
"""
import ast
import builtins
import gc
import importlib.abc
import io
import linecache
import os
import sys
import traceback
import types

PKG_DIR = os.path.dirname(os.path.abspath(__file__))
_STDLIB_PREFIXES = tuple({os.path.dirname(os.__file__), sys.base_prefix + os.sep + "lib"})
_BLOCKED_TOP_LEVEL = {"functorch", "torchvision", "torchaudio", "torchtext", "torchdata", "caffe2"}

# Result tuple: (status, exit_code, type_name, message, traceback_text, line)
OK, ERROR, EXIT, INTERRUPTED = 0, 1, 2, 3

_state = types.SimpleNamespace(globals=None, filename="<string>", statements=[], next_index=0,
                               script_dir=None, graph_error="")


class _RealTorchBlocker(importlib.abc.MetaPathFinder):
    """Keeps packages built against the real PyTorch out: they would import DeviceScope's torch."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname.split(".")[0] in _BLOCKED_TOP_LEVEL:
            raise ModuleNotFoundError(
                f"No module named '{fullname}' (DeviceScope provides torch only; "
                f"packages built on the real PyTorch cannot be imported here)", name=fullname)
        return None


class _Sink(io.TextIOBase):
    """sys.stdout / sys.stderr replacement that hands text to the host application."""

    def __init__(self, callback, is_err):
        self._callback = callback
        self._is_err = is_err

    def writable(self):
        return True

    def write(self, text):
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        if text:
            self._callback(text, self._is_err)
        return len(text)

    def flush(self):
        pass

    def isatty(self):
        return False

    @property
    def encoding(self):
        return "utf-8"


def setup(output_callback=None, guard_os_exit=True):
    """Our package first on sys.path, real-torch add-ons blocked, optional output capture."""
    while PKG_DIR in sys.path:
        sys.path.remove(PKG_DIR)
    sys.path.insert(0, PKG_DIR)
    if not any(isinstance(f, _RealTorchBlocker) for f in sys.meta_path):
        sys.meta_path.insert(0, _RealTorchBlocker())
    # A real torch imported earlier (it never is inside DeviceScope) must not shadow ours.
    for name in [m for m in sys.modules if m == "torch" or m.startswith("torch.")]:
        mod = sys.modules[name]
        if not (getattr(mod, "__file__", "") or "").startswith(PKG_DIR):
            del sys.modules[name]
    if guard_os_exit:
        _guard_os_exit()
    if output_callback is not None:
        sys.stdout = _Sink(output_callback, False)
        sys.stderr = _Sink(output_callback, True)
    new_globals("<string>")


def _guard_os_exit():
    """os._exit(n) in user code ends the script like sys.exit(n) instead of killing DeviceScope itself
    (forked children, e.g. DataLoader workers, still exit for real)."""
    if getattr(os._exit, "_devicescope", False):
        return
    real_exit = os._exit
    pid = os.getpid()

    def _exit(code):
        if os.getpid() != pid:
            real_exit(code)
        raise SystemExit(code)
    _exit._devicescope = True
    os._exit = _exit


def new_globals(filename):
    """A fresh __main__ module (so pickle/dataclasses find it) and its dict as the script's globals."""
    main = types.ModuleType("__main__")
    main.__dict__["__builtins__"] = builtins
    if filename and not filename.startswith("<"):
        main.__dict__["__file__"] = filename
    sys.modules["__main__"] = main
    _state.globals = main.__dict__
    _state.filename = filename
    return _state.globals


def _set_script_dir(filename):
    """Like `python script.py`: sys.path[0] is the script's folder (scripts read it to find their files); our
    package follows it, ahead of any other torch on the path."""
    if _state.script_dir and _state.script_dir in sys.path:
        sys.path.remove(_state.script_dir)
    _state.script_dir = None
    if filename and not filename.startswith("<"):
        d = os.path.dirname(os.path.abspath(filename))
        sys.path.insert(0, d)
        _state.script_dir = d


def _hidden(filename):
    return filename.startswith(PKG_DIR + os.sep) or filename.startswith("<frozen ")


_FULL_TRACEBACKS = bool(os.environ.get("DEVICESCOPE_FULL_TRACEBACK"))


def _filter_stack(stack):
    """User frames only: hide DeviceScope's package and anything it called (numpy, stdlib helpers).
    DEVICESCOPE_FULL_TRACEBACK=1 keeps every frame (for debugging DeviceScope itself)."""
    if _FULL_TRACEBACKS:
        return stack
    kept = []
    inside = False
    for fs in stack:
        fn = fs.filename or ""
        if _hidden(fn):
            inside = True
            continue
        if inside and (fn.startswith(_STDLIB_PREFIXES) or "-packages" + os.sep in fn):
            continue
        inside = False
        kept.append(fs)
    return traceback.StackSummary.from_list(kept)


def _filter_chain(te, seen):
    if te is None or id(te) in seen:
        return
    seen.add(id(te))
    te.stack = _filter_stack(te.stack)
    _filter_chain(te.__cause__, seen)
    _filter_chain(te.__context__, seen)


def type_name(exc_type):
    mod = getattr(exc_type, "__module__", "builtins")
    name = getattr(exc_type, "__qualname__", exc_type.__name__)
    return name if mod in ("builtins", "__main__", None) else f"{mod}.{name}"


def describe(exc):
    """(type_name, message, traceback_text, line) for an exception, as `python script.py` prints it."""
    te = traceback.TracebackException(type(exc), exc, exc.__traceback__, compact=True)
    _filter_chain(te, set())
    text = "".join(te.format())
    line = 0
    if isinstance(exc, SyntaxError):
        line = exc.lineno or 0
    for fs in te.stack:
        if fs.filename == _state.filename:
            line = fs.lineno or line
    try:
        message = str(exc)
    except Exception:  # a broken __str__ must not break error reporting
        message = "<exception str() failed>"
    return type_name(type(exc)), message, text, line


def _c_exit_status(code):
    """The status python passes to exit() for sys.exit(<int>): `(int)PyLong_AsLong(code)`, where a value
    outside C long gives -1 (so 2**63 exits 255 and 2**31 exits 0, silently, as python3 does)."""
    value = int(code)
    if not -2**63 <= value < 2**63:
        value = -1
    return (value + 2**31) % 2**32 - 2**31


def _exit_result(exc):
    code = exc.code
    if code is None:
        return (EXIT, 0, "SystemExit", "", "", 0)
    if isinstance(code, int):
        return (EXIT, _c_exit_status(code), "SystemExit", str(code), "", 0)
    # Python prints a non-integer exit value to stderr and exits with status 1.
    try:
        sys.stderr.write(str(code) + "\n")
    except Exception:
        pass
    return (EXIT, 1, "SystemExit", str(code), "", 0)


def _run(code, globals_):
    return _guarded(lambda: exec(code, globals_))


def _guarded(work):
    """Runs work() as user code: its exceptions, exits and interrupts become a result tuple."""
    try:
        work()
    except SystemExit as e:
        return _exit_result(e)
    except KeyboardInterrupt as e:
        _label_interrupt(e)
        return (INTERRUPTED, 130) + describe(e)
    except BaseException as e:  # noqa: B902 - everything the user's code raises is reported
        return (ERROR, 1) + describe(e)
    finally:
        _flush()
    return (OK, 0, "", "", "", 0)


def _flush():
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            pass


def _remember_source(filename, source):
    """Tracebacks show source lines; keep them even when the file on disk differs or does not exist."""
    lines = source.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    linecache.cache[filename] = (len(source), None, lines, filename)


def _compile_error(e):
    return (ERROR, 1) + describe(e)


def run_source(source, filename, argv):
    """The whole script as __main__, like `python script.py`."""
    globals_ = new_globals(filename)
    sys.argv = list(argv) if argv else [filename]
    _set_script_dir(filename)
    _remember_source(filename, source)
    try:
        code = compile(source, filename, "exec", dont_inherit=True)
    except (SyntaxError, ValueError) as e:
        return _compile_error(e)
    return _run(code, globals_)


def run_path(path, argv):
    """`python path`: reads the file with its encoding cookie honoured, then runs it as __main__."""
    import tokenize
    try:
        with open(path, "rb") as f:
            data = f.read()
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as e:
        return _compile_error(e)
    try:
        source = data.decode(encoding)
        if source.startswith("\ufeff"):
            source = source[1:]
    except UnicodeDecodeError as e:
        # What python's own file reader says (no "File" line, no traceback header).
        line = data[:e.start].count(b"\n") + 1
        text = (f"SyntaxError: Non-UTF-8 code starting with '\\x{data[e.start]:02x}' in file {path} on line "
                f"{line}, but no encoding declared; see https://peps.python.org/pep-0263/ for details")
        return (ERROR, 1, "SyntaxError", text[len("SyntaxError: "):], text + "\n", line)
    # Like `python path` (3.9+): code objects and tracebacks carry the absolute path; argv[0] stays as typed.
    return run_source(source, os.path.abspath(path), argv or [path])


def load(source, filename, argv):
    """Splits the source into top-level statements for stepping; returns a result tuple."""
    new_globals(filename)
    sys.argv = list(argv) if argv else [filename]
    _set_script_dir(filename)
    _remember_source(filename, source)
    _state.statements = []
    _state.next_index = 0
    try:
        tree = ast.parse(source, filename)
        stmts = []
        for node in tree.body:
            first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
            code = compile(ast.Module(body=[node], type_ignores=[]), filename, "exec", dont_inherit=True)
            stmts.append((first, node.end_lineno or node.lineno, code))
    except (SyntaxError, ValueError) as e:
        return _compile_error(e)
    _state.statements = stmts
    return (OK, 0, "", "", "", 0)


def statement_spans():
    return [(a, b) for a, b, _ in _state.statements]


def next_index():
    return _state.next_index


def step():
    """Runs the next top-level statement in the script's globals."""
    if _state.next_index >= len(_state.statements):
        return (OK, 0, "", "", "", 0)
    code = _state.statements[_state.next_index][2]
    result = _run(code, _state.globals)
    # A statement that raised (or was interrupted) stays the next one: the user fixes the line and
    # steps again with everything before it kept (editing a line not yet run keeps the state).
    if result[0] in (OK, EXIT):
        _state.next_index += 1
    return result


def reset_globals():
    """Fresh globals for the loaded script (statements kept, stepping starts again)."""
    old = _state.globals
    new_globals(_state.filename)
    if old is not None:
        old.clear()
    _state.next_index = 0
    # Tensors held by the old globals (and reference cycles through modules) die now, into the old runtime.
    gc.collect()
    # User modules imported from the script's folder are re-imported on the next run.
    if _state.script_dir:
        prefix = _state.script_dir + os.sep
        for name, mod in list(sys.modules.items()):
            f = getattr(mod, "__file__", None) or ""
            if f.startswith(prefix) and not f.startswith(PKG_DIR):
                del sys.modules[name]


def reset_library_state(seed_random):
    """Library-level state that must not leak across a reset: grad mode, default device, seeds, streams."""
    torch = sys.modules.get("torch")
    if torch is not None and hasattr(torch, "_devicescope_reset"):
        torch._devicescope_reset()
    names = sys.modules.get("devicescope.names")
    if names is not None and hasattr(names, "reset"):
        names.reset()  # a new run starts without "changed" highlights
    if seed_random:
        import random
        random.seed(0)
        np = sys.modules.get("numpy")
        if np is not None:
            np.random.seed(0)


def console(line):
    """One console entry: statements run, a final expression is echoed like the REPL (sys.displayhook)."""
    filename = "<console>"
    _remember_source(filename, line)
    g = _state.globals
    try:
        tree = ast.parse(line, filename, "exec")
    except (SyntaxError, ValueError) as e:
        return _compile_error(e)
    body = tree.body
    last = None
    if body and isinstance(body[-1], ast.Expr):
        last = body.pop()
    try:
        if body:
            r = _run(compile(ast.Module(body=body, type_ignores=[]), filename, "exec"), g)
            if r[0] != OK:
                return r
        if last is not None:
            code = compile(ast.Interactive(body=[last]), filename, "single")
            return _run(code, g)
    except (SyntaxError, ValueError) as e:
        return _compile_error(e)
    return (OK, 0, "", "", "", 0)


def call(module, function, kwargs_json):
    """A typed call from the app (the lesson player): module.function(**kwargs), run like user code
    (interruptible, its output captured, its exception reported) outside the script's globals, so the
    names graph stays the script's. Returns (result tuple, the return value as JSON or "")."""
    import importlib
    import json
    returned = []
    result = _guarded(lambda: returned.append(getattr(importlib.import_module(module), function)(**json.loads(kwargs_json))))
    return result, (json.dumps(returned[0], default=str) if returned else "")


def object_graph():
    """The names graph of the script's globals (devicescope.names), for PythonSession to keep with its
    snapshots; None when building it failed (graph_error() says why: the user's run goes on)."""
    from devicescope import names
    try:
        graph = names.build_object_graph(_state.globals)
    except Exception as e:  # noqa: B902 - a user object whose __getattr__ raises must not fail the step
        _state.graph_error = f"{type(e).__name__}: {e}"
        return None
    _state.graph_error = ""
    return graph


def graph_error():
    return _state.graph_error


def _no_interrupt_message():
    return ""


# Replaced by PythonSession with a function returning the text of its latest interrupt(message) ("" if none).
take_interrupt_message = _no_interrupt_message


def _label_interrupt(exc):
    """A KeyboardInterrupt that PythonSession.interrupt(message) caused reads "KeyboardInterrupt: <message>"
    (a real Ctrl+C, or one the script raises itself with its own text, is left as it is)."""
    message = take_interrupt_message()
    if message and not exc.args:
        exc.args = (message,)


def preload(name):
    """Imports a module before the user's code starts (so `--timeout` does not count `import torch`). A module
    that fails to import is left for the script's own import statement to report."""
    try:
        __import__(name)
    except BaseException:  # noqa: B902 - the script's import will raise it again, with a proper traceback
        pass


def _where(frame):
    """ "file.py:12 in func" for the innermost frame of the user's code, "" when none is found."""
    while frame is not None:
        if not _hidden(frame.f_code.co_filename or "") and not (frame.f_code.co_filename or "").startswith(
                _STDLIB_PREFIXES):
            return f"{os.path.basename(frame.f_code.co_filename)}:{frame.f_lineno} in {frame.f_code.co_name}"
        frame = frame.f_back
    return ""


def _running_threads():
    """[(name, where)] of the non-daemon threads still running, besides the main thread."""
    threading = sys.modules.get("threading")
    if threading is None:
        return []
    frames = sys._current_frames()
    main = threading.main_thread()
    return [(t.name, _where(frames.get(t.ident))) for t in threading.enumerate()
            if t is not main and not t.daemon and t.is_alive()]


def _thread_list(threads):
    parts = [f"'{name}'" + (f" (at {where})" if where else "") for name, where in threads]
    noun = "a non-daemon thread" if len(parts) == 1 else "non-daemon threads"
    verb = "is" if len(parts) == 1 else "are"
    return f"{noun} {', '.join(parts)} {verb} still running"


def join_threads():
    """What python does once __main__ has ended: wait for every non-daemon thread (threading._shutdown), so
    they finish while the runtime is alive. An interrupt while waiting comes back as INTERRUPTED, its text
    naming the threads left running (python ignores it there and exits 0; DeviceScope says what happened)."""
    threading = sys.modules.get("threading")
    if threading is None:
        return (OK, 0, "", "", "", 0)
    try:
        threading._shutdown()
    except KeyboardInterrupt as e:
        _label_interrupt(e)
        message = str(e)
        text = "KeyboardInterrupt" + (f": {message}" if message else "") + "\n"
        threads = _running_threads()
        if threads:
            text += (f"devicescope: the script has ended, but {_thread_list(threads)}; "
                     f"exiting without waiting for it\n")
        return (INTERRUPTED, 130, "KeyboardInterrupt", message, text, 0)
    finally:
        _flush()
    return (OK, 0, "", "", "", 0)


def threads_left_running():
    """True when a non-daemon thread is still running (the process must not wait for it at exit)."""
    return bool(_running_threads())


def still_running(main_ident, waiting_for_threads, reading_stdin):
    """Why a run is still going after KeyboardInterrupt, in one line (for the timeout's last stage).
    reading_stdin: the main thread is blocked reading standard input (seen by the C++ side in /proc).
    Flushes the script's output first: the process ends right after."""
    _flush()
    frames = sys._current_frames()
    parts = []
    if not waiting_for_threads:
        where = _where(frames.get(main_ident))
        at = f" (at {where})" if where else ""
        import signal
        handler = signal.getsignal(signal.SIGINT)
        if reading_stdin:
            parts.append(f"the script is blocked in input(){at}, waiting for standard input")
        elif callable(handler) and handler is not signal.default_int_handler:
            name = getattr(handler, "__qualname__", None) or repr(handler)
            parts.append(f"the script's own SIGINT handler ({name}) did not stop it{at}")
        else:
            parts.append(f"the script caught KeyboardInterrupt and kept running{at}")
    threads = _running_threads()
    if threads:
        parts.append(_thread_list(threads))
    return "; ".join(parts)


def flush():
    _flush()
