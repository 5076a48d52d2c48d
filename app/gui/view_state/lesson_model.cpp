// LessonPlayer and the JSON readers for what devicescope.lessons returns (dicts of plain values).
#include "gui/view_state/lesson_model.h"

#include <nlohmann/json.hpp>

#include <stdexcept>

namespace ds::gui {
namespace {

using nlohmann::json;

json parse(const std::string& text) {
  try {
    return json::parse(text);
  } catch (const json::exception& e) {
    throw std::runtime_error(std::string("cannot read the lesson data: ") + e.what());
  }
}

// Lenient field access: a missing or null field reads as empty (the Python side may add fields later).
std::string str(const json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return "";
  return it->is_string() ? it->get<std::string>() : it->dump();
}
int num(const json& j, const char* key, int fallback = 0) {
  auto it = j.find(key);
  return it != j.end() && it->is_number_integer() ? it->get<int>() : fallback;
}
bool flag(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_boolean() && it->get<bool>();
}
std::vector<std::string> strings(const json& j, const char* key) {
  std::vector<std::string> out;
  auto it = j.find(key);
  if (it != j.end() && it->is_array())
    for (const json& v : *it) out.push_back(v.is_string() ? v.get<std::string>() : v.dump());
  return out;
}
const json& array(const json& j, const char* key) {
  static const json kEmpty = json::array();
  auto it = j.find(key);
  return it != j.end() && it->is_array() ? *it : kEmpty;
}

std::string args(std::initializer_list<std::pair<const char*, json>> kv) {
  json j = json::object();
  for (const auto& [k, v] : kv) j[k] = v;
  return j.dump();
}

}  // namespace

std::vector<LessonListEntry> parse_lesson_list(const std::string& text) {
  const json j = parse(text);
  if (!j.is_array()) throw std::runtime_error("the lesson list is not a list");
  std::vector<LessonListEntry> out;
  for (const json& e : j) {
    LessonListEntry l;
    l.name = str(e, "name");
    l.path = str(e, "path");
    l.title = str(e, "title");
    l.seed = str(e, "seed");
    l.error = str(e, "error");
    l.steps = num(e, "steps");
    l.questions = num(e, "questions");
    l.verdicts = num(e, "verdicts");
    l.requires_ = strings(e, "requires");
    l.unmet = strings(e, "unmet");
    out.push_back(std::move(l));
  }
  return out;
}

LessonDoc parse_lesson_doc(const std::string& text) {
  const json j = parse(text);
  if (!j.is_object()) throw std::runtime_error("the lesson is not an object");
  LessonDoc d;
  d.name = str(j, "name");
  d.path = str(j, "path");
  d.title = str(j, "title");
  d.narration = str(j, "narration");
  d.seed = str(j, "seed");
  d.requires_ = strings(j, "requires");
  for (const json& s : array(j, "steps")) {
    LessonStep st;
    st.index = num(s, "index", int(d.steps.size()));
    st.title = str(s, "title");
    st.narration = str(s, "narration");
    st.code = str(s, "code");
    st.code_line = num(s, "code_line");
    st.reveal = str(s, "reveal");
    st.syntax_error = str(s, "syntax_error");
    auto q = s.find("question");
    if (q != s.end() && q->is_object()) {
      LessonQuestion lq;
      lq.prompt = str(*q, "prompt");
      lq.explanation = str(*q, "explanation");
      lq.choices = strings(*q, "choices");
      lq.answer = num(*q, "answer");
      st.question = std::move(lq);
    }
    for (const json& e : array(s, "expectations")) st.expectations.push_back({str(e, "kind"), str(e, "text")});
    d.steps.push_back(std::move(st));
  }
  for (const json& v : array(j, "verdicts"))
    d.verdicts.push_back({str(v, "verdict"), str(v, "claim"), str(v, "reason"), str(v, "step"), num(v, "step_index", -1)});
  return d;
}

LessonStepResult parse_step_result(const std::string& text) {
  const json j = parse(text);
  if (!j.is_object()) throw std::runtime_error("the step result is not an object");
  LessonStepResult r;
  r.ran = flag(j, "ran");
  r.passed = flag(j, "passed");
  r.stdout_text = str(j, "stdout");
  r.stderr_text = str(j, "stderr");
  auto e = j.find("error");
  if (e != j.end() && e->is_object()) {
    r.has_error = true;
    r.error_type = str(*e, "type");
    r.error_message = str(*e, "message");
    r.traceback = str(*e, "traceback");
  }
  for (const json& c : array(j, "checks"))
    r.checks.push_back({str(c, "kind"), str(c, "text"), str(c, "expected"), str(c, "actual"), str(c, "detail"), flag(c, "passed")});
  return r;
}

void LessonPlayer::push(LessonCall c) {
  c.generation = generation_;
  calls_.push_back(std::move(c));
}

std::optional<LessonCall> LessonPlayer::take_call() {
  if (calls_.empty()) return std::nullopt;
  LessonCall c = std::move(calls_.front());
  calls_.pop_front();
  ++in_flight_;
  return c;
}

void LessonPlayer::request_list() {
  list_requested_ = true;
  list_error_.clear();
  LessonCall c;
  c.what = LessonCall::What::List;
  c.function = "list_lessons";
  c.args_json = "{}";
  push(c);
}

void LessonPlayer::open(const std::string& name) {
  ++generation_;
  calls_.clear();
  name_ = name;
  doc_.reset();
  progress_.clear();
  error_.clear();
  hint_.clear();
  page_ = 0;
  LessonCall c;
  c.what = LessonCall::What::Start;
  c.function = "start";
  c.args_json = args({{"name", name}});
  c.reset_first = true;
  push(c);
}

void LessonPlayer::close() {
  ++generation_;
  calls_.clear();
  name_.clear();
  doc_.reset();
  progress_.clear();
  error_.clear();
  hint_.clear();
  page_ = 0;
}

void LessonPlayer::run_step(int step) {
  LessonStepProgress& p = progress_[size_t(step)];
  p.running = true;
  p.failure.clear();
  const LessonStep& s = doc_->steps[size_t(step)];
  if (s.question && p.chosen >= 0) {
    LessonCall a;
    a.what = LessonCall::What::Answer;
    a.function = "answer";
    a.args_json = args({{"step_index", step}, {"choice", p.chosen}});
    a.step = step;
    a.choice = p.chosen;
    push(a);
  }
  LessonCall r;
  r.what = LessonCall::What::Run;
  r.function = "run_step";
  r.args_json = args({{"index", step}});
  r.step = step;
  push(r);
}

void LessonPlayer::next() {
  hint_.clear();
  if (!doc_ || busy()) return;
  const int n = int(doc_->steps.size());
  if (page_ >= n) return;
  LessonStepProgress& p = progress_[size_t(page_)];
  if (p.result || !p.failure.empty()) {
    ++page_;
    return;
  }
  const LessonStep& s = doc_->steps[size_t(page_)];
  if (s.question && p.chosen < 0) {
    hint_ = "Pick an answer first (1-" + std::to_string(s.question->choices.size()) + ")";
    return;
  }
  // Earlier steps the learner skipped with go_to() run first, each with its own result.
  for (int i = 0; i < page_; ++i)
    if (!progress_[size_t(i)].result && !progress_[size_t(i)].running) run_step(i);
  run_step(page_);
}

void LessonPlayer::run_current() {
  hint_.clear();
  if (!doc_ || page_ >= int(doc_->steps.size())) return;
  const LessonStepProgress& p = progress_[size_t(page_)];
  if (!p.result && !p.running) run_step(page_);
}

void LessonPlayer::back() {
  hint_.clear();
  if (doc_ && page_ > 0) --page_;
}

void LessonPlayer::choose(int choice) {
  hint_.clear();
  if (!doc_ || page_ >= int(doc_->steps.size())) return;
  const LessonStep& s = doc_->steps[size_t(page_)];
  LessonStepProgress& p = progress_[size_t(page_)];
  if (!s.question || p.result || p.running || choice < 0 || choice >= int(s.question->choices.size())) return;
  p.chosen = choice;
}

void LessonPlayer::go_to(int page) {
  hint_.clear();
  if (doc_) page_ = std::max(0, std::min(page, int(doc_->steps.size())));
}

void LessonPlayer::on_result(const LessonCall& call, bool ok, const std::string& result_json, const std::string& error) {
  if (in_flight_ > 0) --in_flight_;
  if (call.what == LessonCall::What::List) {
    try {
      if (!ok) throw std::runtime_error(error);
      list_ = parse_lesson_list(result_json);
    } catch (const std::exception& e) {
      list_error_ = e.what();
    }
    return;
  }
  if (call.generation != generation_) return;  // for a lesson closed since
  try {
    switch (call.what) {
      case LessonCall::What::Start:
        if (!ok) throw std::runtime_error(error);
        doc_ = parse_lesson_doc(result_json);
        progress_.assign(doc_->steps.size(), {});
        page_ = 0;
        break;
      case LessonCall::What::Answer: {
        LessonStepProgress& p = progress_.at(size_t(call.step));
        if (!ok) throw std::runtime_error(error);
        const nlohmann::json j = parse(result_json);
        p.answered = true;
        p.correct = flag(j, "correct");
        break;
      }
      case LessonCall::What::Run: {
        LessonStepProgress& p = progress_.at(size_t(call.step));
        p.running = false;
        if (!ok) {
          p.failure = error.empty() ? "the step did not finish" : error;
          calls_.clear();  // later steps would run on a half-run lesson
          break;
        }
        p.result = parse_step_result(result_json);
        break;
      }
      case LessonCall::What::List: break;
    }
  } catch (const std::exception& e) {
    error_ = e.what();
    if (call.step >= 0 && call.step < int(progress_.size())) progress_[size_t(call.step)].running = false;
  }
}

std::vector<const LessonVerdict*> LessonPlayer::verdicts_of(int step) const {
  std::vector<const LessonVerdict*> out;
  if (doc_)
    for (const LessonVerdict& v : doc_->verdicts)
      if (v.step_index == step) out.push_back(&v);
  return out;
}

std::vector<const LessonVerdict*> LessonPlayer::revealed_verdicts() const {
  std::vector<const LessonVerdict*> out;
  if (doc_)
    for (const LessonVerdict& v : doc_->verdicts)
      if (v.step_index >= 0 && v.step_index < int(progress_.size()) && progress_[size_t(v.step_index)].result) out.push_back(&v);
  return out;
}

int LessonPlayer::predictions_right() const {
  int n = 0;
  for (const LessonStepProgress& p : progress_) n += p.answered && p.correct;
  return n;
}
int LessonPlayer::predictions_made() const {
  int n = 0;
  for (const LessonStepProgress& p : progress_) n += p.answered;
  return n;
}
int LessonPlayer::checks_passed() const {
  int n = 0;
  for (const LessonStepProgress& p : progress_)
    if (p.result)
      for (const LessonCheckResult& c : p.result->checks) n += c.passed;
  return n;
}
int LessonPlayer::checks_failed() const {
  int n = 0;
  for (const LessonStepProgress& p : progress_)
    if (p.result)
      for (const LessonCheckResult& c : p.result->checks) n += !c.passed;
  return n;
}

}  // namespace ds::gui
