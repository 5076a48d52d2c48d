"""Lesson files: the format and its parser (pure Python: runs inside DeviceScope and under plain python3).

A lesson is a Python file whose structure lives in column-0 comment markers, so it reads as plain Python:

    # %% lesson: What `model.to(device)` really does        <- first non-blank line: the lesson header
    # | Markdown narration for the lesson (one `# |` per line; `# |` alone is a blank line)
    # seed: 000_5fced8feb2c5b451.txt                         <- optional: the article this lesson checks
    # requires: torch.cuda.device_count() >= 2               <- optional, Python; `torch` is imported for it
    # verdict: FALSE | claim | one-line reason | step title  <- TRUE / FALSE / HALF-TRUE; anywhere in the file

    # %% step: Example 1 as written                          <- a step; titles are unique in a lesson
    # | narration shown before the code runs
    # ? What does `my_function(model)` print?                <- optional predict question (prompt lines)
    # - cpu                                                  <- a choice
    # = cuda:0                                               <- the correct choice (exactly one)
    <Python code of the step: any lines, comments included>
    # expect: str(next(model.parameters()).device) == "cuda:0"     <- Python expression, must be truthy
    # expect-stdout: cuda:0                                  <- the step's stdout, one line per marker;
    #                                                           `...` matches any text / a lone `...` any lines
    # expect-raises: RuntimeError: Expected all tensors ...  <- the step must raise exactly this (type: message,
    #                                                           a trailing `...` makes the message a prefix)
    # > Markdown shown after the step ran (the reveal; also the question's explanation)

Within a step the order is fixed: narration and question, then code, then expectations / reveal / verdicts.
Marker lines are recognised only at column 0; indented comments belong to the code. Anything malformed raises
LessonFormatError(file, line, message) - never another exception, whatever the input.
"""
import ast
import re

__all__ = ["LessonFormatError", "Question", "Expectation", "Verdict", "Step", "Lesson", "parse_lesson",
           "VERDICTS"]

VERDICTS = ("TRUE", "FALSE", "HALF-TRUE")
_VERDICT_ALIASES = {"TRUE": "TRUE", "FALSE": "FALSE", "HALF-TRUE": "HALF-TRUE", "HALF TRUE": "HALF-TRUE",
                    "HALF_TRUE": "HALF-TRUE", "HALFTRUE": "HALF-TRUE"}
_SYNTAX_ERRORS = ("SyntaxError", "IndentationError", "TabError")
_TYPE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*\Z")
_LINE_BREAK = re.compile(r"\r\n|\r|\n")  # what Python's compiler counts as a line break
MAX_TITLE = 200
_SHOW = {"reveal": "`# >`", "question": "`# ?`", "choice": "`# -`", "answer": "`# =`", "expect": "`# expect:`",
         "expect-stdout": "`# expect-stdout:`", "expect-raises": "`# expect-raises:`",
         "unknown-expect": "`# expect...:`"}


class LessonFormatError(ValueError):
    """A malformed lesson file: where (file, 1-based line; 0 = the whole file) and what is wrong."""

    def __init__(self, filename, line, message):
        self.filename = filename
        self.line = line
        self.message = message
        where = f"{filename}:{line}" if line else f"{filename}"
        super().__init__(f"{where}: {message}")


class _Record:
    """Plain data with a dict form (the GUI reads lessons as dicts through the interpreter)."""
    __slots__ = ()

    def to_dict(self):
        out = {}
        for name in self.__slots__:
            value = getattr(self, name)
            if isinstance(value, _Record):
                value = value.to_dict()
            elif isinstance(value, list):
                value = [v.to_dict() if isinstance(v, _Record) else v for v in value]
            out[name] = value
        return out

    def __repr__(self):
        fields = ", ".join(f"{n}={getattr(self, n)!r}" for n in self.__slots__)
        return f"{type(self).__name__}({fields})"


class Question(_Record):
    """A predict-then-reveal question; answer is the index of the correct choice."""
    __slots__ = ("prompt", "choices", "answer", "explanation", "line")

    def __init__(self, prompt, choices, answer, explanation, line):
        self.prompt, self.choices, self.answer, self.explanation, self.line = \
            prompt, choices, answer, explanation, line


class Expectation(_Record):
    """kind: "expr" (text is a Python expression), "stdout" (text is the expected stdout, lines joined by
    "\\n"), "raises" (exc_type + message; prefix=True when the message ended in "...")."""
    __slots__ = ("kind", "text", "line", "exc_type", "message", "prefix")

    def __init__(self, kind, text, line, exc_type="", message="", prefix=False):
        self.kind, self.text, self.line = kind, text, line
        self.exc_type, self.message, self.prefix = exc_type, message, prefix


class Verdict(_Record):
    """A verdict card on one claim of the article, demonstrated by one step."""
    __slots__ = ("verdict", "claim", "reason", "step", "step_index", "line")

    def __init__(self, verdict, claim, reason, step, line):
        self.verdict, self.claim, self.reason, self.step, self.line = verdict, claim, reason, step, line
        self.step_index = -1


class Step(_Record):
    __slots__ = ("index", "title", "line", "narration", "question", "code", "code_line", "reveal",
                 "expectations", "syntax_error")

    def __init__(self, index, title, line):
        self.index, self.title, self.line = index, title, line
        self.narration = ""
        self.question = None
        self.code = ""          # the step's source lines, verbatim (blank lines at both ends trimmed)
        self.code_line = 0      # line of the code's first line in the lesson file (0: no code)
        self.reveal = ""
        self.expectations = []
        self.syntax_error = ""  # set when the code does not compile and the step expects exactly that

    def compile(self, filename):
        """The step's code object, line numbers matching the lesson file (raises SyntaxError as Python would)."""
        return compile("\n" * max(self.code_line - 1, 0) + self.code, filename, "exec", dont_inherit=True)

    @property
    def raises(self):
        for e in self.expectations:
            if e.kind == "raises":
                return e
        return None


class Lesson(_Record):
    __slots__ = ("name", "path", "title", "narration", "seed", "requires", "steps", "verdicts")

    def __init__(self, name, path, title):
        self.name, self.path, self.title = name, path, title
        self.narration = ""
        self.seed = ""
        self.requires = []  # Python expressions (strings)
        self.steps = []
        self.verdicts = []

    def step(self, title_or_index):
        if isinstance(title_or_index, int):
            return self.steps[title_or_index]
        for s in self.steps:
            if s.title == title_or_index:
                return s
        raise KeyError(title_or_index)

    def expectation_count(self):
        return sum(len(s.expectations) for s in self.steps)


# ---------------------------------------------------------------------------------------------------------
# Parsing

def _marker(line):
    """(kind, payload) for a column-0 marker line, or (None, None) for code / plain comments / blank lines."""
    if not line.startswith("#"):
        return None, None
    body = line[1:]
    if body.startswith(" %%") or body.startswith("%%"):
        return "cell", body.lstrip()[2:].strip()
    if not body.startswith(" "):
        return None, None
    body = body[1:]
    for sym, kind in (("|", "narration"), (">", "reveal"), ("?", "question"), ("-", "choice"), ("=", "answer")):
        if body == sym or body.startswith(sym + " "):
            return kind, body[2:] if len(body) > 1 else ""
    for key in ("expect-raises", "expect-stdout", "expect", "verdict", "seed", "requires"):
        if body.startswith(key + ":"):
            return key, body[len(key) + 1:].strip() if key != "expect-stdout" else _strip_one(body[len(key) + 1:])
    m = re.match(r"(expect[A-Za-z0-9_-]*)\s*:", body)
    if m:
        return "unknown-expect", m.group(1)
    return None, None


def _strip_one(text):
    """expect-stdout keeps the text after one separating space (leading spaces can be part of the output)."""
    text = text.rstrip()
    return text[1:] if text.startswith(" ") else text


def _split_fields(text):
    """Split on `|` that is not escaped as `\\|`."""
    fields, cur, i = [], [], 0
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 1 < len(text) and text[i + 1] == "|":
            cur.append("|")
            i += 2
            continue
        if c == "|":
            fields.append("".join(cur).strip())
            cur = []
        else:
            cur.append(c)
        i += 1
    fields.append("".join(cur).strip())
    return fields


def _join(lines):
    return "\n".join(lines).strip("\n")


class _Parser:
    def __init__(self, text, filename, name):
        self.filename = filename
        self.lines = _LINE_BREAK.split(text)
        if self.lines and self.lines[-1] == "":
            self.lines.pop()
        self.lesson = None
        self.step = None
        self.phase = "before"          # before -> code -> after, per step
        self.narration = []
        self.reveal = []
        self.code = []
        self.code_first = 0
        self.q_prompt = []
        self.q_choices = []
        self.q_answer = []
        self.q_line = 0
        self.in_question = False
        self.stdout_open = None        # the step's `# expect-stdout:` block while its lines continue
        self.name = name

    def error(self, line, message):
        raise LessonFormatError(self.filename, line, message)

    def parse(self):
        for i, line in enumerate(self.lines, start=1):
            self.feed(i, line)
        if self.lesson is None:
            self.error(0, "empty lesson: the first line must be `# %% lesson: Title`")
        self.close_section(len(self.lines))
        if not self.lesson.steps:
            self.error(0, "the lesson has no steps (start one with `# %% step: Title`)")
        self.resolve_verdicts()
        return self.lesson

    # --- one line ---
    def feed(self, n, line):
        if "\x00" in line:
            self.error(n, "NUL character in the lesson file")
        kind, payload = _marker(line)
        if self.lesson is None:
            if not line.strip():
                return
            if kind != "cell" or not payload.startswith("lesson:"):
                self.error(n, "a lesson file must start with `# %% lesson: Title`")
            title = payload[len("lesson:"):].strip()
            self.check_title(n, title, "lesson")
            self.lesson = Lesson(self.name, self.filename, title)
            return
        if kind == "cell":
            self.stdout_open = None
            self.cell(n, payload)
        elif kind == "verdict":
            self.verdict(n, payload)
        elif kind in ("seed", "requires"):
            self.header_field(n, kind, payload)
        elif self.step is None:
            self.header_line(n, line, kind, payload)
        else:
            self.step_line(n, line, kind, payload)

    def check_title(self, n, title, what):
        if not title:
            self.error(n, f"the {what} has no title")
        if len(title) > MAX_TITLE:
            self.error(n, f"the {what} title is longer than {MAX_TITLE} characters")

    def cell(self, n, payload):
        if payload.startswith("step:"):
            title = payload[len("step:"):].strip()
            self.check_title(n, title, "step")
            if any(s.title == title for s in self.lesson.steps) or (self.step and self.step.title == title):
                self.error(n, f"a step named '{title}' already exists in this lesson")
            self.close_section(n - 1)
            self.step = Step(len(self.lesson.steps), title, n)
            self.phase = "before"
            return
        if payload.startswith("lesson:"):
            self.error(n, "a second `# %% lesson:` header (one lesson per file)")
        self.error(n, f"unknown cell marker `# %% {payload}` (expected `# %% step: Title`)")

    def header_field(self, n, kind, payload):
        if self.step is not None:
            self.error(n, f"`# {kind}:` belongs in the lesson header, before the first step")
        if not payload:
            self.error(n, f"`# {kind}:` needs a value")
        if kind == "seed":
            if self.lesson.seed:
                self.error(n, "a second `# seed:` line")
            self.lesson.seed = payload
        else:
            self.compile_expr(n, payload, "requires")
            self.lesson.requires.append(payload)

    def header_line(self, n, line, kind, payload):
        if kind == "narration":
            self.narration.append(payload)
        elif kind is None and (not line.strip() or line.startswith("#")):
            return  # blank lines and plain comments in the header
        elif kind is None:
            self.error(n, "code before the first step (start a step with `# %% step: Title`)")
        else:
            self.error(n, f"{_SHOW.get(kind, kind)} lines are not allowed in the lesson header (only `# |`, "
                          "`# seed:`, `# requires:` and `# verdict:`)")

    def step_line(self, n, line, kind, payload):
        if kind in ("choice", "answer") and not self.in_question and self.phase == "code":
            kind = None  # a code comment that happens to look like a choice
        if self.in_question and kind not in ("question", "choice", "answer"):
            self.end_question(n)
        if kind != "expect-stdout":
            self.stdout_open = None
        if kind is None:
            self.code_line(n, line)
        elif kind == "narration":
            if self.phase != "before":
                self.error(n, "narration (`# |`) after the code: put it before the code, or use `# >` for text "
                              "shown after the step runs")
            self.narration.append(payload)
        elif kind == "question":
            self.question_line(n, payload)
        elif kind in ("choice", "answer"):
            if not self.in_question:
                self.error(n, f"choice line ({_SHOW[kind]}) outside a question (start the question with `# ? prompt`)")
            if not payload.strip():
                self.error(n, "empty choice")
            if kind == "answer":
                self.q_answer.append(len(self.q_choices))
            self.q_choices.append(payload.strip())
        elif kind == "reveal":
            self.phase = "after"
            self.reveal.append(payload)
        elif kind in ("expect", "expect-stdout", "expect-raises"):
            self.phase = "after"
            self.expectation(n, kind, payload)
        elif kind == "unknown-expect":
            self.error(n, f"unknown expectation `{payload}:` (use expect:, expect-stdout: or expect-raises:)")
        else:  # pragma: no cover - every marker kind is handled above
            self.error(n, f"unexpected marker {kind}")

    def code_line(self, n, line):
        """Code is one contiguous run of lines, so compiled line numbers match the lesson file."""
        if not line.strip():
            if self.phase == "code":
                self.code.append(line)
            return
        if self.phase == "after":
            if line.startswith("#"):
                return  # plain comments after the expectations are ignored
            self.error(n, f"code after the expectations of step '{self.step.title}' "
                          "(start a new step with `# %% step: Title`)")
        if self.phase == "before":
            self.phase = "code"
            self.code_first = n
        self.code.append(line)

    def question_line(self, n, payload):
        if self.phase != "before":
            self.error(n, "a question (`# ?`) must come before the step's code")
        if self.q_choices or (self.q_prompt and not self.in_question):
            self.error(n, f"step '{self.step.title}' already has a question (one per step)")
        if not self.q_prompt:
            self.q_line = n
        self.in_question = True
        self.q_prompt.append(payload)

    def end_question(self, n):
        self.in_question = False
        if not "".join(self.q_prompt).strip():
            self.error(self.q_line, "the question has an empty prompt")
        if len(self.q_choices) < 2:
            self.error(self.q_line, "a question needs at least two choices (`# - choice`, one marked `# = choice`)")
        if len(self.q_answer) != 1:
            self.error(self.q_line, f"a question needs exactly one correct choice marked `# =` "
                                    f"(found {len(self.q_answer)})")

    def expectation(self, n, kind, payload):
        step = self.step
        if kind == "expect":
            if not payload:
                self.error(n, "`# expect:` needs a Python expression")
            self.compile_expr(n, payload, "expect")
            step.expectations.append(Expectation("expr", payload, n))
        elif kind == "expect-stdout":
            if self.stdout_open is not None:
                self.stdout_open.text += "\n" + payload
                return
            if any(e.kind == "stdout" for e in step.expectations):
                self.error(n, "the `# expect-stdout:` lines of a step must be consecutive")
            self.stdout_open = Expectation("stdout", payload, n)
            step.expectations.append(self.stdout_open)
        else:
            if step.raises is not None:
                self.error(n, "a step can expect only one exception")
            if not payload:
                self.error(n, "`# expect-raises:` needs `ExceptionType: message`")
            type_name, sep, message = payload.partition(":")
            type_name = type_name.strip()
            if not _TYPE_NAME.match(type_name):
                self.error(n, f"`# expect-raises:` must start with an exception type name, got '{type_name}'")
            message = message.strip() if sep else ""
            prefix = message.endswith("...")
            if prefix:
                message = message[:-3].rstrip()
            step.expectations.append(Expectation("raises", payload, n, type_name, message, prefix))

    def compile_expr(self, n, text, what):
        try:
            compile(text, f"<{what} at {self.filename}:{n}>", "eval", dont_inherit=True)
        except SyntaxError as e:
            self.error(n, f"`# {what}:` is not a valid Python expression: {e.msg}")
        except (ValueError, RecursionError, MemoryError, OverflowError) as e:
            self.error(n, f"`# {what}:` cannot be compiled: {type(e).__name__}: {e}")

    def verdict(self, n, payload):
        fields = _split_fields(payload)
        if len(fields) != 4:
            self.error(n, "a verdict is `# verdict: TRUE|FALSE|HALF-TRUE | claim | one-line reason | step title` "
                          f"(4 fields separated by `|`, found {len(fields)})")
        value, claim, reason, step = fields
        key = " ".join(value.upper().split())
        if key not in _VERDICT_ALIASES:
            self.error(n, f"verdict must be TRUE, FALSE or HALF-TRUE, got '{value}'")
        for what, text in (("claim", claim), ("reason", reason), ("step title", step)):
            if not text:
                self.error(n, f"the verdict's {what} is empty")
        self.lesson.verdicts.append(Verdict(_VERDICT_ALIASES[key], claim, reason, step, n))
        if self.step is not None:
            if self.in_question:
                self.end_question(n)
            self.stdout_open = None
            if self.phase == "code":
                self.phase = "after"  # code stays one contiguous run of lines

    # --- closing a section ---
    def close_section(self, last_line):
        if self.in_question:
            self.end_question(last_line)
        if self.step is None:
            self.lesson.narration = _join(self.narration)
        else:
            self.finish_step()
        self.narration, self.reveal, self.code = [], [], []
        self.q_prompt, self.q_choices, self.q_answer = [], [], []
        self.code_first = 0

    def finish_step(self):
        step = self.step
        while self.code and not self.code[-1].strip():
            self.code.pop()
        step.narration = _join(self.narration)
        step.reveal = _join(self.reveal)
        step.code = "\n".join(self.code) + ("\n" if self.code else "")
        step.code_line = self.code_first if self.code else 0
        self.stdout_open = None
        if self.q_prompt:
            if not step.reveal:
                self.error(self.q_line, f"the question of step '{step.title}' has no explanation: add `# >` "
                                        "lines after the code (they are revealed after the step runs)")
            step.question = Question(_join(self.q_prompt), list(self.q_choices), self.q_answer[0],
                                     step.reveal, self.q_line)
        self.check_code(step)
        self.lesson.steps.append(step)
        self.step = None

    def check_code(self, step):
        if not step.code:
            if step.raises is not None:
                self.error(step.raises.line, f"step '{step.title}' expects an exception but has no code")
            return
        try:
            step.compile(self.filename)
        except SyntaxError as e:
            r = step.raises
            if r is not None and r.exc_type.split(".")[-1] in _SYNTAX_ERRORS:
                step.syntax_error = f"{type(e).__name__}: {e.msg}"
                return
            line = e.lineno if isinstance(e.lineno, int) and 0 < e.lineno <= len(self.lines) else step.code_line
            self.error(line, f"Python {type(e).__name__} in step '{step.title}': {e.msg}")
        except (ValueError, RecursionError, MemoryError, OverflowError) as e:
            self.error(step.code_line, f"the code of step '{step.title}' cannot be compiled: "
                                       f"{type(e).__name__}: {e}")

    def resolve_verdicts(self):
        titles = {s.title: s.index for s in self.lesson.steps}
        for v in self.lesson.verdicts:
            if v.step not in titles:
                self.error(v.line, f"the verdict names step '{v.step}', which this lesson does not have")
            v.step_index = titles[v.step]


def parse_lesson(text, filename="<lesson>", name=None):
    """Parses lesson text (str, or UTF-8 bytes) into a Lesson. Raises LessonFormatError and nothing else."""
    if not isinstance(filename, str):
        filename = repr(filename)
    if name is None:
        base = filename.replace("\\", "/").rsplit("/", 1)[-1]
        name = base[:-3] if base.endswith(".py") else base
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as e:
            line = bytes(text)[:e.start].count(b"\n") + 1
            raise LessonFormatError(filename, line, f"the file is not valid UTF-8 ({e.reason})") from None
    if not isinstance(text, str):
        raise LessonFormatError(filename, 0, f"lesson text must be str or bytes, not {type(text).__name__}")
    if text.startswith("\ufeff"):
        text = text[1:]
    try:
        return _Parser(text, filename, name).parse()
    except LessonFormatError:
        raise
    except RecursionError:
        raise LessonFormatError(filename, 0, "the lesson is nested too deeply to parse") from None
    except MemoryError:
        raise LessonFormatError(filename, 0, "the lesson is too large to parse") from None
    except Exception as e:  # a parser bug must still surface as a format error, never as a crash
        raise LessonFormatError(filename, 0, f"internal parser error ({type(e).__name__}: {e})") from None


def expression_ast(text):
    """The parsed expression of an `# expect:` line (the checker splits comparisons to show both sides)."""
    return ast.parse(text, mode="eval")
