"""Workshop lessons: find, load, run and check them (the API the app and `devicescope lessons` call).

    from devicescope import lessons
    lessons.list_lessons()                 -> [{name, title, path, seed, steps, verdicts, requires, unmet, error}]
    lesson = lessons.load("000")           -> Lesson (name, stem prefix or path); lesson.to_dict() for the GUI
    runner = lessons.LessonRunner(lesson, namespace=None, echo=False)
    runner.run_step(i).to_dict()           -> {stdout, stderr, error, checks: [{kind, passed, expected, actual}]}
    lessons.check_expectations(step, namespace, stdout, (type, message) or None)   # when the app ran the code
    lessons.check(lesson)                  -> LessonReport (every step, every expectation, lint problems)
    lessons.main(argv)                     -> exit code; the command-line driver (see _USAGE)

For the app (one current lesson per interpreter, run in the session's own globals so the memory panes and the
names graph show the lesson's objects; everything returned is plain dicts/lists/str/int/bool):
    lessons.start(name_or_path)            -> lesson dict (steps with narration, code, question, expectations)
    lessons.run_next() / run_step(i)       -> step result dict (stdout, error, checks, passed)
    lessons.answer(step_index, choice)     -> {correct, answer, explanation}
    lessons.verdicts_for(step_index)       -> verdict cards revealed once that step has run

The file format and its parser live in lesson_format.py, the runner in lesson_check.py.
"""
import os
import sys

from .lesson_check import (CheckResult, ErrorInfo, LessonReport, LessonRunner, StepResult,  # noqa: F401
                           check_expectations, stdout_matches)
from .lesson_format import (Expectation, Lesson, LessonFormatError, Question, Step, Verdict,  # noqa: F401
                            parse_lesson, VERDICTS)

__all__ = ["LessonFormatError", "LessonNotFound", "Lesson", "Step", "Question", "Expectation", "Verdict",
           "LessonRunner", "LessonReport", "StepResult", "CheckResult", "parse_lesson", "load", "load_file",
           "list_lessons", "lesson_paths", "default_dir", "resolve", "lint", "unmet_requirements", "check",
           "check_expectations", "format_report", "main", "start", "run_step", "run_next", "answer",
           "verdicts_for"]

EXIT_PASS, EXIT_FAIL, EXIT_USAGE, EXIT_UNMET = 0, 1, 2, 3
MAX_LESSON_BYTES = 4 << 20


class LessonNotFound(LookupError):
    pass


def default_dir():
    """$DEVICESCOPE_LESSONS_DIR, else assets/lessons of the source tree this package lives in."""
    env = os.environ.get("DEVICESCOPE_LESSONS_DIR")
    if env:
        return env
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.normpath(os.path.join(here, "..", "..", "..", "assets", "lessons"))


def lesson_paths(directory=None):
    """Every lesson file in the folder (*.py, not starting with _ or .), sorted by name."""
    directory = directory or default_dir()
    try:
        names = sorted(os.listdir(directory))
    except OSError as e:
        raise LessonNotFound(f"cannot read the lessons folder {directory}: {e.strerror or e}") from None
    return [os.path.join(directory, n) for n in names
            if n.endswith(".py") and not n.startswith(("_", ".")) and os.path.isfile(os.path.join(directory, n))]


def _stem(path):
    return os.path.basename(path)[:-3] if path.endswith(".py") else os.path.basename(path)


def _number(stem):
    """The lesson number a stem starts with ("003_tensors_left_behind" -> 3), or None."""
    digits = stem[:len(stem) - len(stem.lstrip("0123456789"))]
    return int(digits) if digits else None


def resolve(name, directory=None):
    """A lesson path from a name: an existing file, an exact stem, a lesson number ("3" and "003" are lesson
    003_...), or a unique stem prefix ("016_non")."""
    if os.sep in name or name.endswith(".py"):
        if os.path.isfile(name):
            return name
        raise LessonNotFound(f"no lesson file {name}")
    paths = lesson_paths(directory)
    exact = [p for p in paths if _stem(p) == name]
    if exact:
        return exact[0]
    if name.isdigit():  # a number names the lesson with that number, never every stem that starts with it
        numbered = [p for p in paths if _number(_stem(p)) == int(name)]
        if len(numbered) == 1:
            return numbered[0]
        if numbered:
            raise LessonNotFound(f"lesson number {name} is used by several lessons: "
                                 f"{', '.join(_stem(p) for p in numbered)}")
        raise LessonNotFound(f"no lesson number {int(name)} in {directory or default_dir()} "
                             f"(try `devicescope lessons --list`)")
    matches = [p for p in paths if _stem(p).startswith(name)]
    if len(matches) == 1:
        return matches[0]
    if not matches:
        raise LessonNotFound(f"no lesson named '{name}' in {directory or default_dir()} "
                             f"(try `devicescope lessons --list`)")
    raise LessonNotFound(f"'{name}' matches several lessons: {', '.join(_stem(p) for p in matches)}")


def load_file(path):
    """Reads and parses one lesson file (LessonFormatError for unreadable or malformed files)."""
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_LESSON_BYTES + 1)
    except OSError as e:
        raise LessonFormatError(path, 0, f"cannot read the file: {e.strerror or e}") from None
    if len(data) > MAX_LESSON_BYTES:
        raise LessonFormatError(path, 0, f"the file is larger than {MAX_LESSON_BYTES >> 20} MiB")
    return parse_lesson(data, path, _stem(path))


def load(name, directory=None):
    return load_file(resolve(name, directory))


def list_lessons(directory=None):
    """One dict per lesson file; a malformed lesson is listed with its error instead of being dropped."""
    out = []
    for path in lesson_paths(directory):
        item = {"name": _stem(path), "path": path, "title": "", "seed": "", "steps": 0, "verdicts": 0,
                "questions": 0, "requires": [], "unmet": [], "error": ""}
        try:
            lesson = load_file(path)
            # unmet: the requirements false here, which the lesson browser shows (most lessons need a GPU, and
            # the app's simulated ones meet that: saying so on every lesson would only be noise).
            item.update(title=lesson.title, seed=lesson.seed, steps=len(lesson.steps),
                        verdicts=len(lesson.verdicts), requires=list(lesson.requires),
                        unmet=unmet_requirements(lesson), questions=sum(1 for s in lesson.steps if s.question))
        except LessonFormatError as e:
            item["error"] = str(e)
        out.append(item)
    return out


def lint(lesson):
    """Teaching-quality rules the parser does not enforce: every verdict and every question is demonstrated."""
    problems = []
    for v in lesson.verdicts:
        if not lesson.steps[v.step_index].expectations:
            problems.append(f"line {v.line}: the verdict on '{v.claim}' points at step '{v.step}', which checks "
                            "nothing (add an `# expect...` line there)")
    for s in lesson.steps:
        if s.question and not s.expectations:
            problems.append(f"line {s.question.line}: the question of step '{s.title}' is not backed by any "
                            "expectation")
    return problems


def unmet_requirements(lesson):
    """The lesson's `# requires:` expressions that are false here (evaluated with `torch` imported)."""
    unmet = []
    if not lesson.requires:
        return unmet
    ns = {}
    try:
        exec("import torch", ns)
    except Exception as e:
        return [f"{r} (import torch failed: {type(e).__name__}: {e})" for r in lesson.requires]
    for r in lesson.requires:
        try:
            if not eval(r, ns):
                unmet.append(r)
        except Exception as e:
            unmet.append(f"{r} ({type(e).__name__}: {e})")
    return unmet


def check(lesson, echo=False):
    """Runs every step in a fresh namespace and checks every expectation (plus lint rules)."""
    runner = LessonRunner(lesson, echo=echo)
    try:
        report = runner.run_all()
    finally:
        runner.close()
    report.problems = lint(lesson)
    return report


def _plural(n, word):
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _indent(text, prefix):
    return "\n".join(prefix + line for line in text.split("\n"))


def _labelled(label, text, width=12):
    lines = (text if text else "''").split("\n")
    first = f"    {label + ':':<{width}}"
    return "\n".join([first + lines[0]] + [" " * len(first) + ln for ln in lines[1:]])


def format_report(report, verbose=False):
    """PASS name (N expectations), or FAIL name plus every failing expectation with expected vs actual."""
    lesson = report.lesson
    n = report.expectation_count
    if report.passed:
        lines = [f"PASS {lesson.name} ({_plural(n, 'expectation')})"]
        if verbose:
            lines += [f"  step {s.index + 1} '{s.title}': {len(s.checks)} ok" for s in report.steps]
        return "\n".join(lines)
    failed = report.failures()
    lines = [f"FAIL {lesson.name} ({_plural(n, 'expectation')}, {len(failed)} failed"
             + (f", {len(report.problems)} lesson problems)" if report.problems else ")")]
    for p in report.problems:
        lines.append(f"  {lesson.path}: {p}")
    for step, c in failed:
        what = {"expr": f"expect: {c.text}", "stdout": "expect-stdout", "raises": f"expect-raises",
                "error": "unexpected exception"}[c.kind]
        lines.append(f"  {lesson.path}:{c.line}: step {step.index + 1} '{step.title}': {what}")
        if c.kind == "error":
            lines.append(_labelled("raised", c.actual))
            if step.error is not None and step.error.traceback:
                tail = step.error.traceback.rstrip("\n").split("\n")[-8:]
                lines.append(_indent("\n".join(tail), "      | "))
            continue
        if c.expected:
            lines.append(_labelled("expected", c.expected))
        if c.actual or c.kind != "expr":
            lines.append(_labelled("actual", c.actual))
        if c.detail:
            lines.append(_labelled("detail", c.detail))
        # The lesson's step declares what it may raise (the result only holds what happened).
        if c.kind == "stdout" and step.error is not None and lesson.steps[step.index].raises is None:
            lines.append(_labelled("note", f"the step stopped early: {step.error}"))
    return "\n".join(lines)


# --- the app's current lesson ------------------------------------------------------------------------------

_current = {"runner": None}


def start(name, directory=None, namespace=None, echo=True):
    """Loads a lesson and makes it current. namespace: the globals to run in (default: the running script's
    __main__, i.e. the app session's globals). Returns the lesson as a dict."""
    lesson = load(name, directory)
    if namespace is None:
        main = sys.modules.get("__main__")
        namespace = main.__dict__ if main is not None else {}
    _current["runner"] = LessonRunner(lesson, namespace=namespace, echo=echo)
    return lesson.to_dict()


def _runner():
    if _current["runner"] is None:
        raise RuntimeError("no lesson started (call devicescope.lessons.start(name) first)")
    return _current["runner"]


def run_step(index):
    """Runs step `index` of the current lesson (and any earlier step not yet run); returns its result dict."""
    return _runner().run_step(index).to_dict()


def run_next():
    runner = _runner()
    if runner.next_step >= len(runner.lesson.steps):
        return None
    return runner.run_step().to_dict()


def answer(step_index, choice):
    """Judges a learner's choice for a step's question: {correct, answer, explanation}."""
    step = _runner().lesson.steps[step_index]
    if step.question is None:
        raise ValueError(f"step {step_index} has no question")
    q = step.question
    return {"correct": choice == q.answer, "answer": q.answer, "explanation": q.explanation}


def verdicts_for(step_index):
    """The verdict cards that the given step demonstrates."""
    return [v.to_dict() for v in _runner().lesson.verdicts if v.step_index == step_index]


_USAGE = """usage: python -m devicescope.lessons COMMAND [--dir DIR] [--lesson NAME ...] [--verbose]
  list        one line per lesson
  paths       the resolved lesson files, one per line (the C++ driver reads them)
  check       check every (or every named) lesson in this interpreter; last line "N passed, M failed"
  check-one PATH [--fallback]
              check one lesson file; exit 0 pass, 1 fail, 3 (with --fallback) when its `# requires:` is unmet"""


def _parse_args(argv):
    args = {"command": None, "dir": None, "lessons": [], "verbose": False, "fallback": False, "path": None}
    it = iter(argv)
    for a in it:
        if a in ("--dir", "--lesson"):
            value = next(it, None)
            if value is None:
                raise ValueError(f"{a} needs a value")
            if a == "--dir":
                args["dir"] = value
            else:
                args["lessons"].append(value)
        elif a == "--verbose":
            args["verbose"] = True
        elif a == "--fallback":
            args["fallback"] = True
        elif args["command"] is None and a in ("list", "paths", "check", "check-one"):
            args["command"] = a
        elif args["command"] == "check-one" and args["path"] is None:
            args["path"] = a
        else:
            raise ValueError(f"unexpected argument {a!r}")
    if args["command"] is None:
        raise ValueError("no command")
    if args["command"] == "check-one" and not args["path"]:
        raise ValueError("check-one needs a lesson path")
    return args


def _selected(args):
    if args["lessons"]:
        return [resolve(n, args["dir"]) for n in args["lessons"]]
    return lesson_paths(args["dir"])


def check_one(path, verbose=False, fallback=False, out=None):
    """Checks one lesson file and prints its PASS/FAIL block; returns the exit code."""
    out = out or sys.stdout
    name = _stem(path)
    try:
        lesson = load_file(path)
    except LessonFormatError as e:
        print(f"FAIL {name} (the lesson file is malformed)\n  {e}", file=out)
        return EXIT_FAIL
    unmet = unmet_requirements(lesson)
    if unmet:
        if fallback:
            print(f"UNMET {name}: {'; '.join(unmet)}", file=out)
            return EXIT_UNMET
        print(f"FAIL {name} (requirement not met here: {'; '.join(unmet)})", file=out)
        return EXIT_FAIL
    report = check(lesson)
    print(format_report(report, verbose), file=out)
    return EXIT_PASS if report.passed else EXIT_FAIL


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        args = _parse_args(argv)
    except ValueError as e:
        print(f"devicescope.lessons: {e}\n{_USAGE}", file=sys.stderr)
        return EXIT_USAGE
    try:
        paths = _selected(args) if args["command"] != "check-one" else [args["path"]]
    except LessonNotFound as e:
        print(f"devicescope lessons: {e}", file=sys.stderr)
        return EXIT_USAGE
    cmd = args["command"]
    if cmd == "paths":
        for p in paths:
            print(p)
        return EXIT_PASS
    if cmd == "list":
        wanted = set(paths)
        for item in list_lessons(args["dir"]):
            if item["path"] not in wanted:
                continue
            if item["error"]:
                print(f"{item['name']:<32} MALFORMED: {item['error']}")
                continue
            extra = f", needs {' and '.join(item['requires'])}" if item["requires"] else ""
            counts = ", ".join(_plural(item[k], k[:-1]) for k in ("steps", "questions", "verdicts"))
            print(f"{item['name']:<32} {item['title']} ({counts}{extra})")
        return EXIT_PASS
    if cmd == "check-one":
        return check_one(paths[0], args["verbose"], args["fallback"])
    passed = failed = 0
    for p in paths:
        if check_one(p, args["verbose"]) == EXIT_PASS:
            passed += 1
        else:
            failed += 1
    print(f"{passed} passed, {failed} failed")
    return EXIT_PASS if failed == 0 else EXIT_FAIL


if __name__ == "__main__":
    sys.exit(main())
