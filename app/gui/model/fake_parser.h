// The small Python subset the preview runner (FakeSession) understands: expressions with names,
// attributes, calls, subscripts, lists/tuples, literals and + - * / @; assignment, del, import, while True.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace ds::gui::fake {

// A Python-style error raised while parsing or running: type ("SyntaxError") and message.
struct PyError : std::runtime_error {
  PyError(std::string type, const std::string& message) : std::runtime_error(message), type(std::move(type)) {}
  std::string type;
};

struct Expr;
using ExprPtr = std::shared_ptr<const Expr>;

struct Expr {
  enum class Kind { Name, Int, Float, Str, FStr, True, False, None, Attr, Call, Subscript, List, Tuple, BinOp, Neg };
  Kind kind = Kind::None;
  std::string text;           // Name: identifier; Attr: attribute; Str/FStr: value; BinOp: operator ("is not", "@")
  double number = 0;          // Int / Float
  ExprPtr base;               // Attr/Call/Subscript: the object; BinOp: left; Neg: operand
  ExprPtr index;              // Subscript: the index; BinOp: right
  std::vector<ExprPtr> args;  // Call positional args; List/Tuple items
  std::vector<std::pair<std::string, ExprPtr>> kwargs;
  std::string source;         // the expression's source text (for messages)
};

struct Stmt {
  enum class Kind { Pass, Expr, Assign, Del, Import, WhileTrue, Unsupported };
  Kind kind = Kind::Pass;
  std::vector<ExprPtr> targets;  // Assign (a = b = value), Del
  ExprPtr value;                 // Assign / Expr
  // Import: (bound name, module path) pairs: "import torch.nn as nn" -> ("nn", "torch.nn").
  std::vector<std::pair<std::string, std::string>> imports;
  std::string keyword;           // Unsupported: the leading keyword ("for", "def", ...)
};

// Parses one statement (possibly several lines). Raises PyError("SyntaxError", ...).
Stmt parse_statement(const std::string& text);

// Parses an expression on its own (tests).
ExprPtr parse_expression(const std::string& text);

}  // namespace ds::gui::fake
