// Fuzzes the lesson file parser (engine/python/devicescope/lesson_format.py, pure Python) inside an
// embedded CPython. Its contract: parse_lesson raises LessonFormatError and nothing else, whatever the
// bytes. Findings: any other exception, an "internal parser error" (the parser's own catch-all for its
// bugs), or an accepted lesson whose dict form or step code cannot be produced.
#include <pybind11/embed.h>

#include <cstdint>
#include <cstdio>
#include <string>

#include "fuzz_common.h"

namespace py = pybind11;

// Python line coverage as libFuzzer "extra counters": libFuzzer reads this section after every input,
// so inputs that reach new (previous line, line) pairs in the parser are kept and mutated further.
__attribute__((section("__libfuzzer_extra_counters"), used)) static uint8_t g_counters[1 << 16];
static thread_local uintptr_t g_prev_loc = 0;

static int line_tracer(PyObject*, PyFrameObject* frame, int what, PyObject*) {
  if (what != PyTrace_LINE && what != PyTrace_CALL) return 0;
  PyCodeObject* code = PyFrame_GetCode(frame);
  const uintptr_t loc = (reinterpret_cast<uintptr_t>(code) >> 4) * 2654435761u + uintptr_t(PyFrame_GetLineNumber(frame));
  Py_DECREF(code);
  const size_t slot = (loc ^ (g_prev_loc << 1)) & (sizeof(g_counters) - 1);
  if (g_counters[slot] != 255) ++g_counters[slot];
  g_prev_loc = loc;
  return 0;
}

namespace {

// Checks run on a lesson the parser accepted; returns "" or what is wrong.
constexpr const char* kChecks = R"PY(
def _ds_fuzz_check(lesson):
    lesson.to_dict()
    for step in lesson.steps:
        if step.code and not step.syntax_error:
            step.compile("<fuzz>")
    return ""
)PY";

struct Interp {
  py::scoped_interpreter guard{};
  py::object parse, format_error, check;
  Interp() {
    py::module_::import("sys").attr("path").attr("insert")(0, DEVICESCOPE_PYTHON_DIR);
    py::module_ fmt = py::module_::import("devicescope.lesson_format");
    parse = fmt.attr("parse_lesson");
    format_error = fmt.attr("LessonFormatError");
    py::dict ns;
    py::exec(kChecks, ns);
    check = ns["_ds_fuzz_check"];
  }
};

Interp* g_interp = nullptr;

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  g_interp = new Interp();  // lives for the whole process (CPython cannot be re-initialised cleanly)
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  py::bytes text(reinterpret_cast<const char*>(data), size);
  g_prev_loc = 0;
  PyEval_SetTrace(line_tracer, nullptr);
  std::string problem;
  try {
    py::object lesson = g_interp->parse(text, "fuzz.py");
    try {
      g_interp->check(lesson);
    } catch (py::error_already_set& e) {
      problem = std::string("an accepted lesson fails its checks: ") + e.what();
    }
  } catch (py::error_already_set& e) {
    if (!e.matches(g_interp->format_error))
      problem = std::string("parse_lesson raised something else than LessonFormatError: ") + e.what();
    // The parser's own catch-all for its bugs; match the message field, not text the input can contain.
    else if (py::str(e.value().attr("message")).cast<std::string>().rfind("internal parser error", 0) == 0)
      problem = std::string("parse_lesson hit a bug: ") + e.what();
  }
  PyEval_SetTrace(nullptr, nullptr);
  if (!problem.empty()) ds_fuzz::finding(problem);
  return 0;
}
