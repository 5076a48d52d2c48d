"""Running a lesson's steps and checking their declared expectations (pure Python).

LessonRunner runs steps in order in one namespace (a fresh `__main__`-like dict unless the caller passes
its own, e.g. the app's session globals), captures each step's stdout/stderr and exception, and checks the
step's expectations. check_expectations() is separate so an app that executes the code itself can still
have the expectations judged.
"""
import ast
import io
import operator
import re
import sys
import traceback
import types

from .lesson_format import expression_ast

__all__ = ["ErrorInfo", "CheckResult", "StepResult", "LessonReport", "LessonRunner", "check_expectations",
           "exception_info", "stdout_matches"]

_COMPARE = {ast.Eq: ("==", operator.eq), ast.NotEq: ("!=", operator.ne), ast.Lt: ("<", operator.lt),
            ast.LtE: ("<=", operator.le), ast.Gt: (">", operator.gt), ast.GtE: (">=", operator.ge),
            ast.Is: ("is", operator.is_), ast.IsNot: ("is not", operator.is_not),
            ast.In: ("in", lambda a, b: a in b), ast.NotIn: ("not in", lambda a, b: a not in b)}
MAX_SHOWN = 2000  # characters of an actual value shown in a failure


class ErrorInfo:
    """An exception raised by a step: type name as Python prints it, message as the traceback's last line."""
    __slots__ = ("type", "message", "traceback", "line", "mro")

    def __init__(self, type, message, traceback="", line=0, mro=()):
        self.type, self.message, self.traceback, self.line, self.mro = type, message, traceback, line, tuple(mro)

    def to_dict(self):
        return {"type": self.type, "message": self.message, "traceback": self.traceback, "line": self.line}

    def __str__(self):
        return f"{self.type}: {self.message}" if self.message else self.type


class CheckResult:
    __slots__ = ("kind", "text", "line", "passed", "expected", "actual", "detail")

    def __init__(self, kind, text, line, passed, expected="", actual="", detail=""):
        self.kind, self.text, self.line, self.passed = kind, text, line, passed
        self.expected, self.actual, self.detail = expected, actual, detail

    def to_dict(self):
        return {k: getattr(self, k) for k in self.__slots__}


class StepResult:
    __slots__ = ("index", "title", "stdout", "stderr", "error", "checks", "ran")

    def __init__(self, index, title):
        self.index, self.title = index, title
        self.stdout, self.stderr, self.error, self.checks, self.ran = "", "", None, [], False

    @property
    def passed(self):
        return all(c.passed for c in self.checks)

    def to_dict(self):
        return {"index": self.index, "title": self.title, "stdout": self.stdout, "stderr": self.stderr,
                "error": self.error.to_dict() if self.error else None, "ran": self.ran, "passed": self.passed,
                "checks": [c.to_dict() for c in self.checks]}


class LessonReport:
    __slots__ = ("lesson", "steps", "problems")

    def __init__(self, lesson):
        self.lesson, self.steps, self.problems = lesson, [], []

    @property
    def expectation_count(self):
        return sum(len(s.checks) for s in self.steps)

    @property
    def passed(self):
        return not self.problems and all(s.passed for s in self.steps)

    def failures(self):
        return [(s, c) for s in self.steps for c in s.checks if not c.passed]

    def to_dict(self):
        return {"lesson": self.lesson.name, "passed": self.passed, "problems": list(self.problems),
                "expectations": self.expectation_count, "steps": [s.to_dict() for s in self.steps]}


def _shown(value):
    try:
        text = repr(value)
    except Exception as e:  # a broken __repr__ must not break the report
        text = f"<repr failed: {type(e).__name__}: {e}>"
    return text if len(text) <= MAX_SHOWN else text[:MAX_SHOWN] + "..."


def _type_name(cls):
    mod = getattr(cls, "__module__", "builtins")
    name = getattr(cls, "__qualname__", cls.__name__)
    return name if mod in ("builtins", "__main__", None) else f"{mod}.{name}"


def exception_info(exc, filename=None):
    """ErrorInfo for an exception: SyntaxError messages without their "(file, line N)" suffix, as printed."""
    if isinstance(exc, SyntaxError):
        message = exc.msg or ""
    else:
        try:
            message = str(exc)
        except Exception:
            message = "<exception str() failed>"
    try:
        tb = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    except Exception:
        tb = ""
    line = 0
    if isinstance(exc, SyntaxError) and isinstance(exc.lineno, int):
        line = exc.lineno
    t = exc.__traceback__
    while t is not None:
        if filename and t.tb_frame.f_code.co_filename == filename:
            line = t.tb_lineno
        t = t.tb_next
    mro = [_type_name(c) for c in type(exc).__mro__]
    return ErrorInfo(_type_name(type(exc)), message, tb, line, mro)


def _type_matches(expected, error):
    """`RuntimeError` matches torch.cuda.OutOfMemoryError (a subclass); `OutOfMemoryError` matches any module."""
    for full in error.mro or (error.type,):
        if expected == full or expected == full.rsplit(".", 1)[-1]:
            return True
    return False


def _line_pattern(expected):
    return re.compile(".*".join(re.escape(part) for part in expected.split("...")) + r"\Z", re.S)


def stdout_matches(expected, actual):
    """Line-wise match; `...` inside a line matches any text, a line that is only `...` matches any lines."""
    exp = expected.split("\n")
    act = actual.split("\n")
    if act and act[-1] == "":
        act.pop()
    act = [a.rstrip() for a in act]
    exp = [e.rstrip() for e in exp]
    memo = {}

    def match(i, j):
        key = (i, j)
        if key in memo:
            return memo[key]
        if i == len(exp):
            r = j == len(act)
        elif exp[i] == "...":
            r = any(match(i + 1, k) for k in range(j, len(act) + 1))
        else:
            r = j < len(act) and bool(_line_pattern(exp[i]).match(act[j])) and match(i + 1, j + 1)
        memo[key] = r
        return r

    return match(0, 0)


def _eval_expr(text, namespace):
    """(passed, expected, actual, detail) for an `# expect:` expression; comparisons report both sides."""
    tree = expression_ast(text)
    body = tree.body
    code_name = "<expect>"
    if isinstance(body, ast.Compare) and len(body.ops) == 1 and type(body.ops[0]) in _COMPARE:
        symbol, fn = _COMPARE[type(body.ops[0])]
        left = eval(compile(ast.Expression(body.left), code_name, "eval"), namespace)
        right = eval(compile(ast.Expression(body.comparators[0]), code_name, "eval"), namespace)
        outcome = bool(fn(left, right))
        if outcome:
            return True, "", "", ""
        if symbol in ("is", "is not"):
            return False, "", "", (f"left is {_shown(left)} (id {id(left):#x}), right is {_shown(right)} "
                                   f"(id {id(right):#x})")
        return False, f"{symbol} {_shown(right)}", _shown(left), ""
    value = eval(compile(tree, code_name, "eval"), namespace)
    if bool(value):
        return True, "", "", ""
    return False, "a true value", _shown(value), ""


def check_expectations(step, namespace, stdout, error):
    """Judges a step that already ran. error: ErrorInfo, (type, message) or None. Returns [CheckResult]."""
    if isinstance(error, tuple):
        error = ErrorInfo(error[0], error[1])
    results = []
    raises = step.raises
    if error is not None and raises is None:
        results.append(CheckResult("error", "", step.code_line, False, "the step runs without error",
                                   str(error), "the step raised an exception it does not expect"))
    for e in step.expectations:
        if e.kind == "raises":
            expected = f"{e.exc_type}: {e.message}{' ...' if e.prefix else ''}" if e.message else e.exc_type
            if error is None:
                results.append(CheckResult("raises", e.text, e.line, False, expected, "no exception"))
                continue
            type_ok = _type_matches(e.exc_type, error)
            msg_ok = (not e.message and not e.prefix) or (error.message.startswith(e.message) if e.prefix
                                                          else error.message == e.message)
            results.append(CheckResult("raises", e.text, e.line, type_ok and msg_ok, expected, str(error)))
        elif e.kind == "stdout":
            ok = stdout_matches(e.text, stdout)
            results.append(CheckResult("stdout", e.text, e.line, ok, e.text, stdout.rstrip("\n")))
        else:
            try:
                ok, expected, actual, detail = _eval_expr(e.text, namespace)
            except KeyboardInterrupt:
                raise
            except BaseException as exc:  # noqa: B902 - a failing expectation is reported, not raised
                ok, expected, actual, detail = False, "a true value", "", f"raised {exception_info(exc)}"
            results.append(CheckResult("expr", e.text, e.line, ok, expected, actual, detail))
    return results


class _Capture(io.TextIOBase):
    """Collects a stream's text; with echo, also passes it on (the app's console keeps showing prints)."""

    def __init__(self, echo_to=None):
        self.parts = []
        self.echo_to = echo_to

    def writable(self):
        return True

    def write(self, text):
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        self.parts.append(text)
        if self.echo_to is not None:
            self.echo_to.write(text)
        return len(text)

    def flush(self):
        if self.echo_to is not None:
            self.echo_to.flush()

    def isatty(self):
        return False

    @property
    def encoding(self):
        return "utf-8"

    def text(self):
        return "".join(self.parts)


def new_namespace(filename):
    main = types.ModuleType("__main__")
    main.__dict__["__builtins__"] = __builtins__
    main.__dict__["__file__"] = filename
    return main


class LessonRunner:
    """Runs a lesson's steps in order in one namespace; each run_step() returns a StepResult."""

    def __init__(self, lesson, namespace=None, echo=False):
        self.lesson = lesson
        self.echo = echo
        self._module = None
        if namespace is None:
            self._module = new_namespace(lesson.path)
            namespace = self._module.__dict__
        self.namespace = namespace
        self.next_step = 0
        self.results = []

    def run_step(self, index=None):
        """Runs step `index` (default: the next one). Steps before it that have not run are run first."""
        if index is None:
            index = self.next_step
        if not 0 <= index < len(self.lesson.steps):
            raise IndexError(f"lesson '{self.lesson.name}' has no step {index}")
        result = None
        while self.next_step <= index:
            result = self._run_one(self.lesson.steps[self.next_step])
            self.results.append(result)
            self.next_step += 1
        return result if result is not None else self.results[index]

    def run_all(self):
        report = LessonReport(self.lesson)
        while self.next_step < len(self.lesson.steps):
            self.run_step()
        report.steps = list(self.results)
        return report

    def _run_one(self, step):
        result = StepResult(step.index, step.title)
        out = _Capture(sys.stdout if self.echo else None)
        err = _Capture(sys.stderr if self.echo else None)
        saved = sys.stdout, sys.stderr, sys.modules.get("__main__")
        error = None
        sys.stdout, sys.stderr = out, err
        if self._module is not None:
            sys.modules["__main__"] = self._module
        try:
            if step.code:
                code = step.compile(self.lesson.path)
                result.ran = True
                exec(code, self.namespace)
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # noqa: B902 - SystemExit in a lesson is a failing step, not an exit
            error = exception_info(exc, self.lesson.path)
        finally:
            sys.stdout, sys.stderr = saved[0], saved[1]
            if self._module is not None:
                if saved[2] is not None:
                    sys.modules["__main__"] = saved[2]
                else:
                    sys.modules.pop("__main__", None)
        result.stdout, result.stderr, result.error = out.text(), err.text(), error
        result.checks = check_expectations(step, self.namespace, result.stdout, error)
        return result

    def close(self):
        """Drops everything the lesson created (its tensors die now, not at the next garbage collection)."""
        if self._module is not None:
            self.namespace.clear()
        self.results = []
