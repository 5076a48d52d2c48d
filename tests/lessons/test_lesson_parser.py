#!/usr/bin/python3
"""Unit tests for the lesson format (devicescope.lesson_format / lesson_check / lessons), run with plain python3.

Parses every lesson in assets/lessons, checks every LessonFormatError message, runs torch-free lessons through
the checker, and fuzzes the parser (it must raise LessonFormatError and nothing else). Prints "N passed, M failed".
"""
import os
import random
import re
import sys
import tempfile
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "engine", "python"))
sys.dont_write_bytecode = True

from devicescope import lessons  # noqa: E402
from devicescope.lesson_format import LessonFormatError, parse_lesson  # noqa: E402
from devicescope.lesson_check import LessonRunner, stdout_matches  # noqa: E402

LESSON_DIR = os.path.join(ROOT, "assets", "lessons")
TESTS = []


def test(fn):
    TESTS.append(fn)
    return fn


def expect_error(text, line, fragment):
    try:
        parse_lesson(text, "t.py")
    except LessonFormatError as e:
        assert e.filename == "t.py", e.filename
        assert e.line == line, f"line {e.line} != {line}: {e}"
        assert fragment in e.message, f"{fragment!r} not in {e.message!r}"
        assert str(e).startswith(f"t.py:{line}: " if line else "t.py: "), str(e)
        return
    raise AssertionError(f"no LessonFormatError for:\n{text}")


GOOD = """# %% lesson: A lesson
# | Intro line one
# |
# | Intro **two**
# seed: seed.txt
# requires: 1 + 1 == 2
# verdict: half true | A claim | a reason, with \\| a pipe | Second

# %% step: First
# | Before the code
# ? Which?
# ? (two prompt lines)
# - no
# = yes
x = 1
# a plain comment inside the code
    # indented marker-looking comment: code
print(x)

# expect: x == 1
# expect-stdout: 1
# > After the run

# %% step: Second
def f():
    raise ValueError("bad value")
f()
# expect-raises: ValueError: bad value
# verdict: FALSE | Another claim | because | First
"""


@test
def parses_a_full_lesson():
    lesson = parse_lesson(GOOD, "dir/007_good.py")
    assert lesson.name == "007_good" and lesson.title == "A lesson"
    assert lesson.narration == "Intro line one\n\nIntro **two**", repr(lesson.narration)
    assert lesson.seed == "seed.txt" and lesson.requires == ["1 + 1 == 2"]
    s0, s1 = lesson.steps
    assert (s0.index, s0.title, s0.line) == (0, "First", 9)
    assert s0.narration == "Before the code"
    assert s0.question.prompt == "Which?\n(two prompt lines)"
    assert s0.question.choices == ["no", "yes"] and s0.question.answer == 1
    assert s0.question.explanation == "After the run" == s0.reveal
    assert s0.code_line == 15, s0.code_line
    assert s0.code.startswith("x = 1\n# a plain comment") and s0.code.endswith("print(x)\n"), repr(s0.code)
    assert [(e.kind, e.line) for e in s0.expectations] == [("expr", 20), ("stdout", 21)]
    assert s1.raises.exc_type == "ValueError" and s1.raises.message == "bad value" and not s1.raises.prefix
    v0, v1 = lesson.verdicts
    assert (v0.verdict, v0.claim, v0.reason, v0.step, v0.step_index) == (
        "HALF-TRUE", "A claim", "a reason, with | a pipe", "Second", 1)
    assert (v1.verdict, v1.step_index, v1.line) == ("FALSE", 0, 29)
    d = lesson.to_dict()
    assert d["steps"][0]["question"]["answer"] == 1 and d["verdicts"][1]["claim"] == "Another claim"
    assert lesson.expectation_count() == 3


@test
def step_code_compiles_with_file_line_numbers():
    lesson = parse_lesson(GOOD, "g.py")
    code = lesson.steps[1].compile("g.py")
    try:
        exec(code, {})
    except ValueError as e:
        lines = [tb.tb_lineno for tb in _tb_chain(e.__traceback__) if tb.tb_frame.f_code.co_filename == "g.py"]
        assert lines == [27, 26], lines
    else:
        raise AssertionError("no error")


def _tb_chain(tb):
    while tb is not None:
        yield tb
        tb = tb.tb_next


@test
def stdout_blocks_and_prefix_raises():
    text = ("# %% lesson: L\n# %% step: S\nprint('a')\nprint('b')\nraise KeyError('k')\n"
            "# expect-stdout: a\n# expect-stdout:  b\n# expect-raises: KeyError: 'k...\n")
    s = parse_lesson(text, "t.py").steps[0]
    assert s.expectations[0].text == "a\n b", repr(s.expectations[0].text)
    assert s.raises.message == "'k" and s.raises.prefix


@test
def crlf_and_bom_and_bytes():
    lesson = parse_lesson(("\ufeff" + GOOD).replace("\n", "\r\n").encode("utf-8"), "t.py")
    assert lesson.steps[0].code_line == 15 and len(lesson.steps) == 2


@test
def format_errors_name_file_and_line():
    H = "# %% lesson: L\n"
    cases = [
        ("", 0, "empty lesson"),
        ("x = 1\n", 1, "must start with `# %% lesson: Title`"),
        ("# %% lesson:\n", 1, "the lesson has no title"),
        (H, 0, "has no steps"),
        (H + "x = 1\n", 2, "code before the first step"),
        (H + "# %% step: A\n# %% step: A\n", 3, "already exists"),
        (H + "# %% step:\n", 2, "the step has no title"),
        (H + "# %% lesson: again\n", 2, "a second `# %% lesson:`"),
        (H + "# %% cell: what\n", 2, "unknown cell marker"),
        (H + "# %% step: A\nx = 1\n# | late\n", 4, "narration (`# |`) after the code"),
        (H + "# %% step: A\nx = 1\n# ? late\n", 4, "must come before the step's code"),
        (H + "# %% step: A\n# ? q\n# = a\nx = 1\n# > e\n", 3, "at least two choices"),
        (H + "# %% step: A\n# ? q\n# - a\n# - b\nx = 1\n# > e\n", 3, "exactly one correct choice"),
        (H + "# %% step: A\n# ? q\n# = a\n# = b\nx = 1\n# > e\n", 3, "exactly one correct choice"),
        (H + "# %% step: A\n# ? q\n# - a\n# = b\nx = 1\n", 3, "has no explanation"),
        (H + "# %% step: A\n# - a\n", 3, "outside a question"),
        (H + "# %% step: A\n# ? q\n# - a\n# = b\n# ? again\n", 6, "already has a question"),
        (H + "# %% step: A\nx = 1\n# expect: x ==\n", 4, "not a valid Python expression"),
        (H + "# %% step: A\nx = 1\n# expect:\n", 4, "needs a Python expression"),
        (H + "# %% step: A\nx = 1\n# expect-value: 3\n", 4, "unknown expectation `expect-value:`"),
        (H + "# %% step: A\nx = 1\n# expect-raises: not a type: m\n", 4, "exception type name"),
        (H + "# %% step: A\nx = 1\n# expect-raises: E: a\n# expect-raises: E: b\n", 5, "only one exception"),
        (H + "# %% step: A\n# expect-raises: E: a\n", 3, "has no code"),
        (H + "# %% step: A\nx = 1\n# expect-stdout: a\n# expect: 1\n# expect-stdout: b\n", 6, "consecutive"),
        (H + "# %% step: A\nx = 1\n# expect: x\ny = 2\n", 5, "code after the expectations"),
        (H + "# %% step: A\nx = (\n", 3, "Python SyntaxError in step 'A'"),
        (H + "# %% step: A\nif x:\ny = 1\n", 4, "Python IndentationError in step 'A'"),
        (H + "# verdict: TRUE | c | r\n# %% step: A\n", 2, "4 fields"),
        (H + "# verdict: MAYBE | c | r | A\n# %% step: A\n", 2, "TRUE, FALSE or HALF-TRUE"),
        (H + "# verdict: TRUE |  | r | A\n# %% step: A\n", 2, "claim is empty"),
        (H + "# verdict: TRUE | c | r | Nope\n# %% step: A\n", 2, "does not have"),
        (H + "# %% step: A\n# seed: s\n", 3, "belongs in the lesson header"),
        (H + "# seed: a\n# seed: b\n", 3, "a second `# seed:`"),
        (H + "# requires: ((\n", 2, "not a valid Python expression"),
        (H + "# > reveal\n", 2, "not allowed in the lesson header"),
        (H + "# %% step: A\nx = '\x00'\n", 3, "NUL character"),
        (H + "# %% step: " + "t" * 201 + "\n", 2, "longer than 200"),
    ]
    for text, line, fragment in cases:
        try:
            expect_error(text, line, fragment)
        except AssertionError as e:
            raise AssertionError(f"case {text!r}: {e}") from None


@test
def invalid_utf8_and_wrong_types():
    expect_error(b"# %% lesson: L\n# %% step: A\nx = '\xff'\n", 3, "not valid UTF-8")
    expect_error(12, 0, "must be str or bytes")


@test
def expected_syntax_error_is_allowed():
    text = "# %% lesson: L\n# %% step: A\ndef f(:\n    pass\n# expect-raises: SyntaxError: invalid syntax\n"
    lesson = parse_lesson(text, "t.py")
    assert lesson.steps[0].syntax_error.startswith("SyntaxError: "), lesson.steps[0].syntax_error
    report = lessons.check(lesson)
    assert report.passed, lessons.format_report(report)


@test
def plain_comments_that_look_like_choices_stay_in_code():
    text = "# %% lesson: L\n# %% step: A\nx = 1\n# - not a choice\n# = not an answer\ny = 2\n# expect: y == 2\n"
    lesson = parse_lesson(text, "t.py")
    assert "# - not a choice" in lesson.steps[0].code
    assert lessons.check(lesson).passed


@test
def stdout_matching():
    assert stdout_matches("a\nb", "a\nb\n")
    assert not stdout_matches("a\nb", "a\nb\nc\n")
    assert stdout_matches("a\n...\nz", "a\nb\nc\nz\n")
    assert stdout_matches("a\n...\nz", "a\nz\n")
    assert stdout_matches("x = ...", "x = 12345\n")
    assert stdout_matches("tensor([...])", "tensor([1., 2.])")
    assert not stdout_matches("x = ...", "y = 1\n")
    assert stdout_matches("", "\n")  # an empty `# expect-stdout:` line is one empty line
    assert stdout_matches("a.b(c)", "a.b(c)")  # regex characters are literal
    assert not stdout_matches("a.b", "axb")
    assert stdout_matches("trailing", "trailing   \n")


CHECKED = """# %% lesson: Checked
# verdict: TRUE | c | r | Prints
# %% step: Prints
# ? q
# - a
# = b
values = [1, 2, 3]
print(sum(values))
print("done")
# expect: sum(values) == 6
# expect: len(values) > 2
# expect: values is values
# expect-stdout: 6
# expect-stdout: done
# > explained

# %% step: Raises
{}["missing"]
# expect-raises: KeyError: 'missing'

# %% step: Fails
x = 41
print("out")
# expect: x == 42
# expect: x in (1, 2)
# expect: undefined_name
# expect-stdout: other
# expect-raises: ValueError: nope

# %% step: Unexpected error
print("before")
raise RuntimeError("boom")
# expect-stdout: before

# %% step: Exit
import sys
sys.exit(3)
# expect-raises: SystemExit: 3
"""


@test
def runner_checks_expectations():
    lesson = parse_lesson(CHECKED, "/tmp/checked.py")
    report = lessons.check(lesson)
    assert not report.passed
    s = {r.title: r for r in report.steps}
    assert s["Prints"].passed and s["Prints"].stdout == "6\ndone\n"
    assert s["Raises"].passed and s["Raises"].error.type == "KeyError"
    assert s["Exit"].passed, [c.to_dict() for c in s["Exit"].checks]
    fails = [(c.kind, c.text) for c in s["Fails"].checks if not c.passed]
    assert fails == [("expr", "x == 42"), ("expr", "x in (1, 2)"), ("expr", "undefined_name"),
                     ("stdout", "other"), ("raises", "ValueError: nope")], fails
    by = {c.text: c for c in s["Fails"].checks}
    assert by["x == 42"].expected == "== 42" and by["x == 42"].actual == "41"
    assert "NameError" in by["undefined_name"].detail
    assert by["ValueError: nope"].actual == "no exception"
    ue = s["Unexpected error"]
    assert not ue.passed and ue.checks[0].kind == "error" and ue.checks[0].actual == "RuntimeError: boom"
    assert ue.checks[1].passed  # the stdout before the error is still checked
    assert ue.error.line == 32, ue.error.line
    text = lessons.format_report(report)
    assert text.startswith("FAIL checked (13 expectations, 6 failed)"), text
    assert "/tmp/checked.py:24: step 3 'Fails': expect: x == 42" in text, text
    assert "expected:   == 42" in text and "actual:     41" in text, text
    assert "raised:     RuntimeError: boom" in text, text


@test
def report_of_a_step_stopped_before_its_output():
    # A failed stdout expectation of a step that raised: the report says the step stopped early (it read the
    # lesson step's declared raises from the result, which has none, and crashed the checker).
    text = ("# %% lesson: S\n# %% step: A\nprint('a')\nraise RuntimeError('boom')\nprint('b')\n"
            "# expect-stdout: a\n# expect-stdout: b\n")
    report = lessons.check(parse_lesson(text, "s.py"))
    out = lessons.format_report(report)
    assert not report.passed and "the step stopped early: RuntimeError: boom" in out, out


@test
def runner_passes_and_reports_pass_line():
    text = "# %% lesson: P\n# %% step: A\nimport os\nx = os.sep\n# expect: x == os.sep\n"
    report = lessons.check(parse_lesson(text, "p.py"))
    assert report.passed and lessons.format_report(report) == "PASS p (1 expectation)"


@test
def exception_type_matches_base_classes_and_short_names():
    text = ("# %% lesson: L\n# %% step: A\nclass OutOfMemoryError(RuntimeError):\n    pass\n"
            "raise OutOfMemoryError('CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0')\n"
            "# expect-raises: RuntimeError: CUDA out of memory. Tried to allocate ...\n")
    assert lessons.check(parse_lesson(text, "t.py")).passed


@test
def runner_step_by_step_api():
    lesson = parse_lesson(CHECKED, "c.py")
    ns = {}
    runner = LessonRunner(lesson, namespace=ns)
    r = runner.run_step(1)  # runs step 0 first
    assert [x.index for x in runner.results] == [0, 1] and r.title == "Raises"
    assert ns["values"] == [1, 2, 3]
    d = r.to_dict()
    assert d["passed"] and d["error"]["type"] == "KeyError"
    res = lessons.check_expectations(lesson.steps[2], {"x": 42}, "other\n", ("ValueError", "nope"))
    assert [c.passed for c in res] == [True, False, False, True, True], [c.to_dict() for c in res]


@test
def app_api_current_lesson():
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "000_app.py"), "w") as f:
            f.write(CHECKED)
        ns = {}
        info = lessons.start("000", d, namespace=ns, echo=False)
        assert info["title"] == "Checked" and info["steps"][0]["question"]["choices"] == ["a", "b"]
        r0 = lessons.run_next()
        assert r0["passed"] and r0["stdout"] == "6\ndone\n" and ns["values"] == [1, 2, 3]
        assert lessons.answer(0, 1) == {"correct": True, "answer": 1, "explanation": "explained"}
        assert not lessons.answer(0, 0)["correct"]
        assert [v["claim"] for v in lessons.verdicts_for(0)] == ["c"] and lessons.verdicts_for(1) == []
        r3 = lessons.run_step(3)
        assert r3["title"] == "Unexpected error" and r3["error"]["type"] == "RuntimeError" and not r3["passed"]
        assert lessons.run_next()["title"] == "Exit" and lessons.run_next() is None
        import json
        json.dumps(info)
        json.dumps(r3)


@test
def lint_rules():
    text = ("# %% lesson: L\n# verdict: TRUE | c | r | A\n# %% step: A\n# ? q\n# - a\n# = b\nx = 1\n# > e\n")
    problems = lessons.lint(parse_lesson(text, "t.py"))
    assert len(problems) == 2 and "checks nothing" in problems[0] and "not backed" in problems[1], problems


@test
def resolve_names_and_list():
    with tempfile.TemporaryDirectory() as d:
        for name in ("000_alpha.py", "001_beta.py", "010_gamma.py", "020_dup_a.py", "020_dup_b.py", "_helper.py",
                     "notes.txt"):
            with open(os.path.join(d, name), "w") as f:
                f.write("# %% lesson: T\n# %% step: A\nx = 1\n# expect: x\n")
        with open(os.path.join(d, "011_broken.py"), "w") as f:
            f.write("nonsense\n")
        assert [os.path.basename(p) for p in lessons.lesson_paths(d)] == [
            "000_alpha.py", "001_beta.py", "010_gamma.py", "011_broken.py", "020_dup_a.py", "020_dup_b.py"]
        assert lessons.resolve("001", d).endswith("001_beta.py")
        assert lessons.resolve("010_gamma", d).endswith("010_gamma.py")
        # A number is the lesson's number (`--lesson 3`, `--lesson 0`), not a prefix of every stem.
        for number, stem in (("0", "000_alpha"), ("00", "000_alpha"), ("1", "001_beta"), ("01", "001_beta"),
                             ("10", "010_gamma"), ("0010", "010_gamma")):
            assert lessons.resolve(number, d).endswith(stem + ".py"), (number, lessons.resolve(number, d))
        for bad, fragment in (("020_d", "matches several"), ("zzz", "no lesson named"), ("3", "no lesson number 3"),
                              ("20", "used by several lessons")):
            try:
                lessons.resolve(bad, d)
                raise AssertionError("resolved " + bad)
            except lessons.LessonNotFound as e:
                assert fragment in str(e), str(e)
        items = {i["name"]: i for i in lessons.list_lessons(d)}
        assert items["011_broken"]["error"].endswith(":1: a lesson file must start with `# %% lesson: Title`")
        assert items["000_alpha"]["steps"] == 1 and not items["000_alpha"]["error"]


@test
def repository_lessons_parse_and_lint():
    paths = lessons.lesson_paths(LESSON_DIR)
    assert len(paths) >= 13, paths
    seeds = set()
    for p in paths:
        lesson = lessons.load_file(p)
        assert not lessons.lint(lesson), (p, lessons.lint(lesson))
        assert lesson.verdicts, f"{p}: no verdict cards"
        assert lesson.expectation_count() >= 4, p
        for s in lesson.steps:
            assert s.narration or s.code, (p, s.title)
        if lesson.seed:
            seeds.add(lesson.seed)
    assert len(seeds) == 5, seeds


def _seed_code_lines(text):
    """Code lines (stripped) of a seed article's ```python fences (seed 004 has none: checked by hand)."""
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    if blocks:
        return [ln.strip() for b in blocks for ln in b.split("\n") if ln.strip()]
    return []


@test
def seed_code_appears_verbatim():
    seeds_dir = os.environ.get("DEVICESCOPE_SEEDS_DIR", "/work/shared/seeds")
    if not os.path.isdir(seeds_dir):
        print("  (seed texts not found; verbatim check skipped)")
        return
    by_seed = {}
    for p in lessons.lesson_paths(LESSON_DIR):
        lesson = lessons.load_file(p)
        if lesson.seed:
            code = "\n".join(s.code for s in lesson.steps)
            by_seed[lesson.seed] = {ln.strip() for ln in code.split("\n")}
    for seed, code_lines in by_seed.items():
        with open(os.path.join(seeds_dir, seed), encoding="utf-8") as f:
            text = f.read()
        missing = [ln for ln in _seed_code_lines(text) if ln not in code_lines]
        assert not missing, f"{seed}: lines missing from the lesson: {missing[:5]}"


# --- fuzzing: whatever the input, only LessonFormatError ---------------------------------------------------

_PIECES = ["# %% lesson: T", "# %% step: S", "# %% step: S2", "# %%", "# |", "# | text", "# ?", "# ? q", "# -",
           "# - a", "# = b", "# >", "# > r", "# expect:", "# expect: x", "# expect: (", "# expect-stdout:",
           "# expect-stdout: o", "# expect-raises:", "# expect-raises: E: m", "# expect-raises: E", "# verdict:",
           "# verdict: TRUE | a | b | S", "# verdict: FALSE | a | b | S2", "# verdict: X||||", "# seed: s",
           "# requires: True", "# requires: (", "x = 1", "print(x)", "    y = 2", "def f(:", "if x:", "'''",
           "\"\"\"", "\\", "", " ", "\t", "#", "# plain", "\x00", "\ufeff", "\u2028", "\r", "((((((((((", "]",
           "raise E", "# expect-xyz: 1", "#|", "# %%step:S", "é", "\udcff"]


def _fuzz_one(rng, base_lines):
    mode = rng.randrange(4)
    if mode == 0:
        lines = [rng.choice(_PIECES) for _ in range(rng.randrange(1, 40))]
        if rng.random() < 0.7:
            lines.insert(0, "# %% lesson: T")
        text = "\n".join(lines)
    elif mode == 1:
        lines = list(base_lines)
        for _ in range(rng.randrange(1, 8)):
            op = rng.randrange(3)
            i = rng.randrange(len(lines) + 1)
            if op == 0 and lines:
                del lines[min(i, len(lines) - 1)]
            elif op == 1:
                lines.insert(i, rng.choice(_PIECES))
            elif lines:
                j = min(i, len(lines) - 1)
                s = lines[j]
                k = rng.randrange(len(s) + 1)
                lines[j] = s[:k] + rng.choice(["|", "#", ":", " ", "(", "\"\"\"", "\x00", "...", "="]) + s[k:]
        text = "\n".join(lines)
    elif mode == 2:
        text = "".join(chr(rng.choice([rng.randrange(32, 127), rng.randrange(0, 0x3000), 10, 35, 124]))
                       for _ in range(rng.randrange(0, 300)))
    else:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(0, 200)))
    if rng.random() < 0.1:
        text = text.encode("utf-8", "surrogatepass")
    return text


@test
def fuzz_never_crashes():
    rng = random.Random(1234)
    bases = [GOOD.split("\n"), CHECKED.split("\n")]
    for p in lessons.lesson_paths(LESSON_DIR)[:4]:
        with open(p, encoding="utf-8") as f:
            bases.append(f.read().split("\n"))
    ok = errors = 0
    for _ in range(3000):
        data = _fuzz_one(rng, rng.choice(bases))
        try:
            lesson = parse_lesson(data, "fuzz.py")
            lesson.to_dict()
            lessons.lint(lesson)
            ok += 1
        except LessonFormatError as e:
            assert "internal parser error" not in e.message, (repr(data)[:400], e.message)
            assert isinstance(e.line, int) and e.line >= 0
            errors += 1
    assert ok > 50 and errors > 500, (ok, errors)


@test
def deep_nesting_and_huge_input():
    for text in ("# %% lesson: L\n# %% step: A\nx = " + "(" * 5000 + "\n",
                 "# %% lesson: L\n# %% step: A\nx = 1\n# expect: " + "-" * 100000 + "1\n",
                 "# %% lesson: L\n# %% step: A\nx = 1\n# expect: " + "[" * 3000 + "]" * 3000 + "\n",
                 "# %% lesson: L\n" + "# %% step: A\n" * 2 + "x\n" * 20000):
        try:
            parse_lesson(text, "t.py")
        except LessonFormatError as e:
            assert "internal parser error" not in e.message, e.message


def main():
    passed = failed = 0
    for fn in TESTS:
        try:
            fn()
            passed += 1
            print(f"ok   {fn.__name__}")
        except Exception:
            failed += 1
            print(f"FAIL {fn.__name__}")
            traceback.print_exc(limit=6, file=sys.stdout)
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
