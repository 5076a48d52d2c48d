// Tokenizer and recursive-descent parser for the preview runner's Python subset.
#include "gui/model/fake_parser.h"

#include <cctype>
#include <cstdlib>

namespace ds::gui::fake {
namespace {

struct Token {
  enum class Kind { Name, Number, Str, FStr, Op, End };
  Kind kind = Kind::End;
  std::string text;
  size_t pos = 0;
};

[[noreturn]] void syntax_error(const std::string& what) { throw PyError("SyntaxError", what); }

std::vector<Token> tokenize(const std::string& s) {
  std::vector<Token> out;
  size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (std::isspace(static_cast<unsigned char>(c)) || c == '\\') {
      ++i;
    } else if (c == '#') {
      while (i < s.size() && s[i] != '\n') ++i;
    } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      const size_t b = i;
      while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_')) ++i;
      std::string word = s.substr(b, i - b);
      // String prefixes: r"..", b"..", f"..".
      if (i < s.size() && (s[i] == '"' || s[i] == '\'') && word.size() <= 2 &&
          word.find_first_not_of("rRbBfFuU") == std::string::npos) {
        const bool f = word.find_first_of("fF") != std::string::npos;
        const bool raw = word.find_first_of("rR") != std::string::npos;
        const char q = s[i];
        const bool triple = s.compare(i, 3, std::string(3, q)) == 0;
        i += triple ? 3 : 1;
        std::string val;
        while (true) {
          if (i >= s.size()) syntax_error("unterminated string literal");
          if (triple ? s.compare(i, 3, std::string(3, q)) == 0 : s[i] == q) break;
          if (s[i] == '\\' && !raw && i + 1 < s.size()) {
            const char e = s[i + 1];
            val += e == 'n' ? '\n' : e == 't' ? '\t' : e;
            i += 2;
          } else {
            val += s[i++];
          }
        }
        i += triple ? 3 : 1;
        out.push_back({f ? Token::Kind::FStr : Token::Kind::Str, val, b});
        continue;
      }
      out.push_back({Token::Kind::Name, word, b});
    } else if (std::isdigit(static_cast<unsigned char>(c)) || (c == '.' && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
      const size_t b = i;
      while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '.' || s[i] == '_' ||
                              ((s[i] == '-' || s[i] == '+') && (s[i - 1] == 'e' || s[i - 1] == 'E'))))
        ++i;
      out.push_back({Token::Kind::Number, s.substr(b, i - b), b});
    } else if (c == '"' || c == '\'') {
      // Same as the prefixed case with no prefix: re-enter through a fake empty prefix.
      const char q = c;
      const bool triple = s.compare(i, 3, std::string(3, q)) == 0;
      const size_t b = i;
      i += triple ? 3 : 1;
      std::string val;
      while (true) {
        if (i >= s.size()) syntax_error("unterminated string literal");
        if (triple ? s.compare(i, 3, std::string(3, q)) == 0 : s[i] == q) break;
        if (s[i] == '\\' && i + 1 < s.size()) {
          const char e = s[i + 1];
          val += e == 'n' ? '\n' : e == 't' ? '\t' : e;
          i += 2;
        } else {
          val += s[i++];
        }
      }
      i += triple ? 3 : 1;
      out.push_back({Token::Kind::Str, val, b});
    } else {
      static const char* two[] = {"==", "!=", "<=", ">=", "**", "//", "->", "+=", "-=", "*="};
      std::string op(1, c);
      for (const char* t : two)
        if (s.compare(i, 2, t) == 0) op = t;
      if (std::string("()[]{},.:=+-*/@%<>").find(c) == std::string::npos && op.size() == 1)
        syntax_error(std::string("invalid character '") + c + "'");
      out.push_back({Token::Kind::Op, op, i});
      i += op.size();
    }
  }
  out.push_back({Token::Kind::End, "", s.size()});
  return out;
}

class Parser {
 public:
  Parser(const std::string& src) : src_(src), toks_(tokenize(src)) {}

  ExprPtr expression() { return comparison(); }
  bool at_end() const { return peek().kind == Token::Kind::End; }
  bool accept_op(const char* op) {
    if (peek().kind == Token::Kind::Op && peek().text == op) {
      ++p_;
      return true;
    }
    return false;
  }
  const Token& peek(size_t ahead = 0) const { return toks_[std::min(p_ + ahead, toks_.size() - 1)]; }
  void expect_end() {
    if (!at_end()) syntax_error("invalid syntax near '" + peek().text + "'");
  }
  std::string rest() const { return src_.substr(peek().pos); }

 private:
  bool accept_name(const char* word) {
    if (peek().kind == Token::Kind::Name && peek().text == word) {
      ++p_;
      return true;
    }
    return false;
  }
  void expect_op(const char* op) {
    if (!accept_op(op)) syntax_error(std::string("expected '") + op + "'" + (at_end() ? "" : " near '" + peek().text + "'"));
  }
  ExprPtr finish(Expr e, size_t begin) {
    const size_t end = peek().pos;
    e.source = src_.substr(toks_[begin].pos, end > toks_[begin].pos ? end - toks_[begin].pos : 0);
    while (!e.source.empty() && std::isspace(static_cast<unsigned char>(e.source.back()))) e.source.pop_back();
    return std::make_shared<const Expr>(std::move(e));
  }
  ExprPtr binop(const std::string& op, ExprPtr l, ExprPtr r, size_t begin) {
    Expr e;
    e.kind = Expr::Kind::BinOp;
    e.text = op;
    e.base = std::move(l);
    e.index = std::move(r);
    return finish(std::move(e), begin);
  }
  ExprPtr comparison() {
    const size_t b = p_;
    ExprPtr l = additive();
    while (true) {
      std::string op;
      if (accept_name("is")) op = accept_name("not") ? "is not" : "is";
      else if (accept_op("==")) op = "==";
      else if (accept_op("!=")) op = "!=";
      else return l;
      l = binop(op, l, additive(), b);
    }
  }
  ExprPtr additive() {
    const size_t b = p_;
    ExprPtr l = multiplicative();
    while (true) {
      if (accept_op("+")) l = binop("+", l, multiplicative(), b);
      else if (accept_op("-")) l = binop("-", l, multiplicative(), b);
      else return l;
    }
  }
  ExprPtr multiplicative() {
    const size_t b = p_;
    ExprPtr l = unary();
    while (true) {
      std::string op;
      for (const char* o : {"*", "/", "@", "//", "%"})
        if (op.empty() && accept_op(o)) op = o;
      if (op.empty()) return l;
      l = binop(op, l, unary(), b);
    }
  }
  ExprPtr unary() {
    const size_t b = p_;
    if (accept_op("-")) {
      Expr e;
      e.kind = Expr::Kind::Neg;
      e.base = unary();
      return finish(std::move(e), b);
    }
    return postfix();
  }
  ExprPtr postfix() {
    const size_t b = p_;
    ExprPtr e = atom();
    while (true) {
      if (accept_op(".")) {
        if (peek().kind != Token::Kind::Name) syntax_error("invalid syntax after '.'");
        Expr a;
        a.kind = Expr::Kind::Attr;
        a.base = e;
        a.text = toks_[p_++].text;
        e = finish(std::move(a), b);
      } else if (accept_op("(")) {
        Expr c;
        c.kind = Expr::Kind::Call;
        c.base = e;
        while (!accept_op(")")) {
          if (peek().kind == Token::Kind::Name && peek(1).kind == Token::Kind::Op && peek(1).text == "=") {
            std::string key = toks_[p_].text;
            p_ += 2;
            c.kwargs.emplace_back(key, expression());
          } else {
            if (!c.kwargs.empty()) syntax_error("positional argument follows keyword argument");
            c.args.push_back(expression());
          }
          if (!accept_op(",")) {
            expect_op(")");
            break;
          }
        }
        e = finish(std::move(c), b);
      } else if (accept_op("[")) {
        Expr s;
        s.kind = Expr::Kind::Subscript;
        s.base = e;
        s.index = expression();
        expect_op("]");
        e = finish(std::move(s), b);
      } else {
        return e;
      }
    }
  }
  ExprPtr atom() {
    const size_t b = p_;
    const Token t = peek();
    Expr e;
    switch (t.kind) {
      case Token::Kind::Name:
        ++p_;
        if (t.text == "True") e.kind = Expr::Kind::True;
        else if (t.text == "False") e.kind = Expr::Kind::False;
        else if (t.text == "None") e.kind = Expr::Kind::None;
        else {
          e.kind = Expr::Kind::Name;
          e.text = t.text;
        }
        return finish(std::move(e), b);
      case Token::Kind::Number: {
        ++p_;
        std::string digits;
        for (char c : t.text)
          if (c != '_') digits += c;
        char* end = nullptr;
        const bool is_float = digits.find_first_of(".eE") != std::string::npos && digits.rfind("0x", 0) != 0;
        e.kind = is_float ? Expr::Kind::Float : Expr::Kind::Int;
        e.number = is_float ? std::strtod(digits.c_str(), &end) : double(std::strtoll(digits.c_str(), &end, 0));
        if (end == nullptr || *end != 0) syntax_error("invalid decimal literal");
        return finish(std::move(e), b);
      }
      case Token::Kind::Str:
      case Token::Kind::FStr:
        ++p_;
        e.kind = t.kind == Token::Kind::Str ? Expr::Kind::Str : Expr::Kind::FStr;
        e.text = t.text;
        // Adjacent literals concatenate.
        while (peek().kind == Token::Kind::Str) e.text += toks_[p_++].text;
        return finish(std::move(e), b);
      case Token::Kind::Op:
        if (accept_op("(")) {
          if (accept_op(")")) {
            e.kind = Expr::Kind::Tuple;
            return finish(std::move(e), b);
          }
          ExprPtr first = expression();
          if (accept_op(")")) return first;
          e.kind = Expr::Kind::Tuple;
          e.args.push_back(first);
          while (accept_op(",")) {
            if (accept_op(")")) return finish(std::move(e), b);
            e.args.push_back(expression());
          }
          expect_op(")");
          return finish(std::move(e), b);
        }
        if (accept_op("[")) {
          e.kind = Expr::Kind::List;
          while (!accept_op("]")) {
            e.args.push_back(expression());
            if (!accept_op(",")) {
              expect_op("]");
              break;
            }
          }
          return finish(std::move(e), b);
        }
        syntax_error("invalid syntax near '" + t.text + "'");
      case Token::Kind::End:
        break;
    }
    syntax_error("invalid syntax: unexpected end of line");
  }

  std::string src_;
  std::vector<Token> toks_;
  size_t p_ = 0;
};

std::string trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

std::string first_word(const std::string& s) {
  size_t e = 0;
  while (e < s.size() && (std::isalnum(static_cast<unsigned char>(s[e])) || s[e] == '_')) ++e;
  return s.substr(0, e);
}

// "a.b as c, d" -> pairs; `from` is prepended to every module path.
std::vector<std::pair<std::string, std::string>> parse_import_list(const std::string& list, const std::string& from) {
  std::vector<std::pair<std::string, std::string>> out;
  size_t start = 0;
  while (start <= list.size()) {
    size_t comma = list.find(',', start);
    if (comma == std::string::npos) comma = list.size();
    std::string item = trim(list.substr(start, comma - start));
    if (!item.empty() && item.front() == '(') item = trim(item.substr(1));
    if (!item.empty() && item.back() == ')') item = trim(item.substr(0, item.size() - 1));
    if (item.empty()) syntax_error("invalid syntax in import");
    std::string path = item, alias;
    if (size_t as = item.find(" as "); as != std::string::npos) {
      path = trim(item.substr(0, as));
      alias = trim(item.substr(as + 4));
    }
    const std::string full = from.empty() ? path : from + "." + path;
    // `import torch.nn` binds `torch`; `import torch.nn as nn` binds `nn`.
    if (alias.empty()) alias = from.empty() ? path.substr(0, path.find('.')) : path;
    if (alias.empty() || path.empty()) syntax_error("invalid syntax in import");
    out.emplace_back(alias, from.empty() && item.find(" as ") == std::string::npos ? alias : full);
    start = comma + 1;
  }
  return out;
}

}  // namespace

ExprPtr parse_expression(const std::string& text) {
  Parser p(text);
  ExprPtr e = p.expression();
  p.expect_end();
  return e;
}

Stmt parse_statement(const std::string& raw) {
  const std::string text = trim(raw);
  Stmt st;
  if (text.empty() || text[0] == '#') return st;
  const std::string word = first_word(text);
  if (word == "pass" && trim(text.substr(4)).empty()) return st;
  if (word == "import") {
    st.kind = Stmt::Kind::Import;
    st.imports = parse_import_list(text.substr(6), "");
    return st;
  }
  if (word == "from") {
    const size_t imp = text.find(" import ");
    if (imp == std::string::npos) syntax_error("invalid syntax: expected 'import'");
    st.kind = Stmt::Kind::Import;
    st.imports = parse_import_list(text.substr(imp + 8), trim(text.substr(4, imp - 4)));
    return st;
  }
  if (word == "while") {
    const std::string cond = trim(text.substr(5, text.find(':') - 5));
    if (cond == "True" || cond == "1") {
      st.kind = Stmt::Kind::WhileTrue;
      return st;
    }
  }
  static const char* unsupported[] = {"for", "while", "if", "def", "class", "with", "try", "return", "lambda",
                                      "async", "global", "nonlocal", "raise", "assert", "yield", "match"};
  for (const char* kw : unsupported)
    if (word == kw) {
      st.kind = Stmt::Kind::Unsupported;
      st.keyword = kw;
      return st;
    }
  if (word == "del") {
    st.kind = Stmt::Kind::Del;
    Parser p(text.substr(3));
    do st.targets.push_back(p.expression());
    while (p.accept_op(","));
    p.expect_end();
    return st;
  }
  Parser p(text);
  ExprPtr first = p.expression();
  if (p.accept_op("=")) {
    st.kind = Stmt::Kind::Assign;
    st.targets.push_back(first);
    ExprPtr value = p.expression();
    while (p.accept_op("=")) {
      st.targets.push_back(value);
      value = p.expression();
    }
    p.expect_end();
    for (const ExprPtr& t : st.targets)
      if (t->kind != Expr::Kind::Name && t->kind != Expr::Kind::Attr && t->kind != Expr::Kind::Subscript)
        throw PyError("SyntaxError", "cannot assign to expression here. Maybe you meant '==' instead of '='?");
    st.value = value;
    return st;
  }
  p.expect_end();
  st.kind = Stmt::Kind::Expr;
  st.value = first;
  return st;
}

}  // namespace ds::gui::fake
