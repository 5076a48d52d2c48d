// The lesson player without a display or Python: JSON readers, the Next/Back/answer state machine, and the
// narration Markdown subset.
#include <gtest/gtest.h>

#include "gui/view_state/lesson_markdown.h"
#include "gui/view_state/lesson_model.h"

namespace ds::gui {
namespace {

// Shaped like devicescope.lessons.start() output (two steps, the first with a question and a verdict).
const char* kDoc = R"({"name": "000_demo", "path": "/x/000_demo.py", "title": "Demo", "narration": "Intro", "seed": null,
  "requires": [], "steps": [
   {"index": 0, "title": "One", "line": 3, "narration": "n1", "code": "a = 1\n", "code_line": 7, "reveal": "r1",
    "question": {"prompt": "What?", "choices": ["x", "y", "z"], "answer": 1, "explanation": "e", "line": 4},
    "expectations": [{"kind": "expr", "text": "a == 1", "line": 8}], "syntax_error": null},
   {"index": 1, "title": "Two", "line": 9, "narration": "", "code": "b = 2\n", "code_line": 10, "reveal": "",
    "question": null, "expectations": [], "syntax_error": null}],
  "verdicts": [{"verdict": "FALSE", "claim": "c", "reason": "why", "step": "One", "step_index": 0, "line": 2},
               {"verdict": "HALF-TRUE", "claim": "d", "reason": "w2", "step": "Two", "step_index": 1, "line": 2}]})";

const char* kResult = R"({"index": 0, "title": "One", "stdout": "hi\n", "stderr": "", "ran": true, "passed": false,
  "error": {"type": "RuntimeError", "message": "boom", "traceback": "tb", "line": 7},
  "checks": [{"kind": "expr", "text": "a == 1", "line": 8, "passed": true, "expected": "", "actual": "", "detail": ""},
             {"kind": "stdout", "text": "ho", "line": 9, "passed": false, "expected": "ho", "actual": "hi", "detail": ""}]})";

TEST(LessonJson, ReadsTheLessonDoc) {
  const LessonDoc d = parse_lesson_doc(kDoc);
  EXPECT_EQ(d.title, "Demo");
  EXPECT_EQ(d.seed, "");
  ASSERT_EQ(d.steps.size(), 2u);
  EXPECT_EQ(d.steps[0].code_line, 7);
  ASSERT_TRUE(d.steps[0].question.has_value());
  EXPECT_EQ(d.steps[0].question->choices.size(), 3u);
  EXPECT_EQ(d.steps[0].question->answer, 1);
  EXPECT_FALSE(d.steps[1].question.has_value());
  ASSERT_EQ(d.verdicts.size(), 2u);
  EXPECT_EQ(d.verdicts[1].verdict, "HALF-TRUE");
  EXPECT_EQ(d.verdicts[1].step_index, 1);
}

// devicescope.lessons.list_lessons(): the browser says only the requirements false in this session ("unmet").
TEST(LessonJson, ListKeepsWhichRequirementsAreUnmet) {
  const auto list = parse_lesson_list(R"J([
    {"name": "000_a", "path": "/x/000_a.py", "title": "A", "seed": "", "steps": 2, "verdicts": 1, "questions": 0,
     "requires": ["torch.cuda.is_available()"], "unmet": [], "error": ""},
    {"name": "001_b", "path": "/x/001_b.py", "title": "B", "seed": "", "steps": 1, "verdicts": 0, "questions": 0,
     "requires": ["torch.cuda.device_count() >= 2"], "unmet": ["torch.cuda.device_count() >= 2"], "error": ""}])J");
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[0].requires_, std::vector<std::string>{"torch.cuda.is_available()"});
  EXPECT_TRUE(list[0].unmet.empty());
  EXPECT_EQ(list[1].unmet, std::vector<std::string>{"torch.cuda.device_count() >= 2"});
}

TEST(LessonJson, ReadsAStepResult) {
  const LessonStepResult r = parse_step_result(kResult);
  EXPECT_TRUE(r.ran);
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(r.stdout_text, "hi\n");
  EXPECT_TRUE(r.has_error);
  EXPECT_EQ(r.error_type, "RuntimeError");
  ASSERT_EQ(r.checks.size(), 2u);
  EXPECT_EQ(r.checks[1].actual, "hi");
  EXPECT_THROW(parse_step_result("[1"), std::runtime_error);
}

// Plays the session's part: takes each call and answers it.
void answer_calls(LessonPlayer& p, const std::string& run_result = kResult) {
  while (auto c = p.take_call()) {
    switch (c->what) {
      case LessonCall::What::Start: p.on_result(*c, true, kDoc, ""); break;
      case LessonCall::What::Answer: p.on_result(*c, true, c->choice == 1 ? R"({"correct": true})" : R"({"correct": false})", ""); break;
      case LessonCall::What::Run: p.on_result(*c, true, run_result, ""); break;
      case LessonCall::What::List: p.on_result(*c, true, "[]", ""); break;
    }
  }
}

TEST(LessonPlayer, QuestionFirstThenRunThenNextPage) {
  LessonPlayer p;
  p.open("000");
  auto start = p.take_call();
  ASSERT_TRUE(start.has_value());
  EXPECT_EQ(start->function, "start");
  EXPECT_TRUE(start->reset_first);
  EXPECT_EQ(start->args_json, R"({"name":"000"})");
  p.on_result(*start, true, kDoc, "");
  ASSERT_TRUE(p.doc().has_value());
  EXPECT_EQ(p.page(), 0);

  p.next();  // no pick yet: nothing runs
  EXPECT_FALSE(p.has_call());
  EXPECT_EQ(p.hint(), "Pick an answer first (1-3)");
  p.choose(5);  // out of range: ignored
  EXPECT_EQ(p.progress(0).chosen, -1);
  p.choose(2);
  p.next();
  auto a = p.take_call();
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->function, "answer");
  EXPECT_EQ(a->args_json, R"({"choice":2,"step_index":0})");
  p.on_result(*a, true, R"({"correct": false, "answer": 1})", "");
  auto r = p.take_call();
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->function, "run_step");
  EXPECT_EQ(r->args_json, R"({"index":0})");
  EXPECT_TRUE(p.busy());
  p.on_result(*r, true, kResult, "");
  EXPECT_FALSE(p.busy());
  EXPECT_TRUE(p.progress(0).answered);
  EXPECT_FALSE(p.progress(0).correct);
  EXPECT_EQ(p.checks_passed(), 1);
  EXPECT_EQ(p.checks_failed(), 1);
  ASSERT_EQ(p.revealed_verdicts().size(), 1u);
  EXPECT_EQ(p.revealed_verdicts()[0]->verdict, "FALSE");

  p.choose(1);  // after the run the pick is fixed
  EXPECT_EQ(p.progress(0).chosen, 2);
  p.next();  // a step that ran: next page
  EXPECT_EQ(p.page(), 1);
  p.next();  // no question: runs at once
  answer_calls(p);
  p.next();
  EXPECT_TRUE(p.at_end());
  EXPECT_EQ(p.revealed_verdicts().size(), 2u);
  EXPECT_EQ(p.predictions_made(), 1);
  EXPECT_EQ(p.predictions_right(), 0);
  p.back();
  p.back();
  EXPECT_EQ(p.page(), 0);
  p.back();
  EXPECT_EQ(p.page(), 0);
}

TEST(LessonPlayer, StaleResultsAndFailures) {
  LessonPlayer p;
  p.open("000");
  auto start = p.take_call();
  p.open("001");  // the first lesson's answer arrives after the second was asked for: dropped
  p.on_result(*start, true, kDoc, "");
  EXPECT_FALSE(p.doc().has_value());
  answer_calls(p);
  ASSERT_TRUE(p.doc().has_value());
  p.go_to(1);
  p.next();  // step 1 runs; nothing earlier is skipped silently: step 0 runs first
  auto r0 = p.take_call();
  ASSERT_TRUE(r0.has_value());
  EXPECT_EQ(r0->args_json, R"({"index":0})");
  p.on_result(*r0, false, "", "Stopped (KeyboardInterrupt)");
  EXPECT_EQ(p.progress(0).failure, "Stopped (KeyboardInterrupt)");
  EXPECT_FALSE(p.has_call());  // the later step is not run over a half-run lesson
  p.close();
  EXPECT_FALSE(p.active());

  LessonPlayer q;
  q.open("nope");
  auto s = q.take_call();
  q.on_result(*s, false, "", "LessonNotFound: no lesson named nope");
  EXPECT_FALSE(q.doc().has_value());
  EXPECT_EQ(q.error(), "LessonNotFound: no lesson named nope");
}

TEST(LessonMarkdown, BlocksAndSpans) {
  const auto b = parse_markdown("# Title\n\nSome **bold** and `x.to(d)`\ncontinued.\n\n- one\n  more\n- two `c`\n\n```\ncode\n```\n");
  ASSERT_EQ(b.size(), 5u);
  EXPECT_EQ(b[0].kind, MdBlock::Kind::Heading);
  EXPECT_EQ(b[0].level, 1);
  EXPECT_EQ(b[1].kind, MdBlock::Kind::Paragraph);
  ASSERT_EQ(b[1].spans.size(), 5u);
  EXPECT_EQ(b[1].spans[1].text, "bold");
  EXPECT_TRUE(b[1].spans[1].bold);
  EXPECT_EQ(b[1].spans[2].text, " and ");
  EXPECT_EQ(b[1].spans[3].text, "x.to(d)");
  EXPECT_TRUE(b[1].spans[3].code);
  EXPECT_EQ(b[1].spans[4].text, " continued.");  // the continuation line joins its paragraph
  EXPECT_FALSE(b[1].spans[4].code);
  EXPECT_EQ(b[2].kind, MdBlock::Kind::Bullet);
  EXPECT_EQ(b[2].spans[0].text, "one more");
  EXPECT_EQ(b[3].spans.back().text, "c");
  EXPECT_EQ(b[4].kind, MdBlock::Kind::Code);
  EXPECT_EQ(b[4].spans[0].text, "code");
}

TEST(LessonMarkdown, LiteralMarkersStayText) {
  const auto s = parse_inline("snake_case_name, 2*3 and an unclosed `tick");
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].text, "snake_case_name, 2*3 and an unclosed `tick");
  const auto e = parse_inline("an *emphasis* here");
  ASSERT_EQ(e.size(), 3u);
  EXPECT_TRUE(e[1].italic);
  EXPECT_EQ(e[1].text, "emphasis");
}

}  // namespace
}  // namespace ds::gui
