// The lesson player's state (GL-free): lesson documents and step results as devicescope.lessons returns them
// (JSON), and the Next/Back/answer state machine. The lesson rules live in Python; this only asks for calls.
#pragma once

#include <deque>
#include <optional>
#include <string>
#include <vector>

namespace ds::gui {

struct LessonListEntry {
  std::string name, path, title, seed, error;
  int steps = 0, questions = 0, verdicts = 0;
  std::vector<std::string> requires_;
  std::vector<std::string> unmet;  // the requirements false in this session (the browser says only these)
};

struct LessonQuestion {
  std::string prompt, explanation;
  std::vector<std::string> choices;
  int answer = 0;  // 0-based
};

struct LessonExpectation {
  std::string kind, text;  // kind: expr, stdout, raises
};

struct LessonStep {
  int index = 0;
  std::string title, narration, code, reveal, syntax_error;
  int code_line = 0;  // file line of the code's first line
  std::optional<LessonQuestion> question;
  std::vector<LessonExpectation> expectations;
};

struct LessonVerdict {
  std::string verdict, claim, reason, step;  // verdict: TRUE, FALSE, HALF-TRUE
  int step_index = -1;
};

struct LessonDoc {
  std::string name, path, title, narration, seed;
  std::vector<std::string> requires_;
  std::vector<LessonStep> steps;
  std::vector<LessonVerdict> verdicts;
};

struct LessonCheckResult {
  std::string kind, text, expected, actual, detail;
  bool passed = false;
};

struct LessonStepResult {
  bool ran = false, passed = false;
  std::string stdout_text, stderr_text;
  bool has_error = false;
  std::string error_type, error_message, traceback;
  std::vector<LessonCheckResult> checks;
};

// Parsers; each throws std::runtime_error with a short reason on JSON it cannot read.
std::vector<LessonListEntry> parse_lesson_list(const std::string& json);
LessonDoc parse_lesson_doc(const std::string& json);
LessonStepResult parse_step_result(const std::string& json);

// One call into devicescope.lessons for the session to run (in the session's globals, on its thread).
struct LessonCall {
  enum class What { List, Start, Answer, Run };
  What what = What::List;
  std::string function;   // "list_lessons", "start", "answer", "run_step"
  std::string args_json;  // keyword arguments as a JSON object
  bool reset_first = false;  // Start: a fresh session (new globals, new runtime) first
  int step = -1;
  int choice = -1;
  int generation = 0;  // results of calls made for an earlier open() are dropped
};

// Per step: what the learner predicted and what running it showed.
struct LessonStepProgress {
  int chosen = -1;                 // the learner's pick (0-based), -1 none
  bool answered = false;           // answer() came back
  bool correct = false;
  std::optional<LessonStepResult> result;
  std::string failure;             // the call itself failed (interrupted, internal error)
  bool running = false;
};

// The player: page = step index, or steps.size() for the closing page with every verdict card.
class LessonPlayer {
 public:
  // Ask for the list of lessons (the browser).
  void request_list();
  // Fresh session, then start the lesson; the doc arrives through on_result().
  void open(const std::string& name);
  void close();

  // Keyboard/mouse actions. next(): on a step not yet run, runs it (a question needs a pick first);
  // on a step that ran, goes to the next page. back(): the previous page (steps never un-run).
  void next();
  void back();
  void choose(int choice);  // on the current step, before it runs
  void go_to(int page);     // shows that page (runs nothing)
  void run_current();       // runs the current page's step, with the pick if there is one (headless, skipping)

  // The app takes calls one at a time while the session is idle and hands each result back.
  bool has_call() const { return !calls_.empty(); }
  std::optional<LessonCall> take_call();
  void on_result(const LessonCall& call, bool ok, const std::string& result_json, const std::string& error);

  bool active() const { return !name_.empty(); }
  bool loading() const { return active() && !doc_; }
  const std::string& name() const { return name_; }
  const std::optional<LessonDoc>& doc() const { return doc_; }
  const std::vector<LessonListEntry>& list() const { return list_; }
  bool list_requested() const { return list_requested_; }
  const std::string& list_error() const { return list_error_; }
  const std::string& error() const { return error_; }
  const std::string& hint() const { return hint_; }
  int page() const { return page_; }
  bool at_end() const { return doc_ && page_ >= int(doc_->steps.size()); }
  const LessonStepProgress& progress(int step) const { return progress_.at(size_t(step)); }
  bool busy() const { return in_flight_ > 0 || !calls_.empty(); }

  // Verdict cards revealed so far (their step has run), in the lesson's order.
  std::vector<const LessonVerdict*> revealed_verdicts() const;
  std::vector<const LessonVerdict*> verdicts_of(int step) const;
  int predictions_right() const;
  int predictions_made() const;
  int checks_passed() const;
  int checks_failed() const;

 private:
  void run_step(int step);
  void push(LessonCall c);

  std::string name_;
  std::optional<LessonDoc> doc_;
  std::vector<LessonStepProgress> progress_;
  std::vector<LessonListEntry> list_;
  bool list_requested_ = false;
  std::string list_error_, error_, hint_;
  int page_ = 0;
  std::deque<LessonCall> calls_;
  int in_flight_ = 0;
  int generation_ = 0;
};

}  // namespace ds::gui
