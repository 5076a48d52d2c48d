// Expressions and statements of the preview runner: names, attributes, calls, operators, assignment.
// The torch/nn library lives in fake_library.cpp; printing in fake_print.cpp.
#include "gui/model/fake_eval.h"

#include <chrono>
#include <cmath>
#include <thread>

namespace ds::gui {

using fake::Expr;
using fake::PyError;
using fake::Stmt;
using fake::Value;
using fake::ValuePtr;
using Kind = Value::Kind;

namespace {

[[noreturn]] void py_raise(const std::string& type, const std::string& message) { throw PyError(type, message); }

// Sleeps in short slices so that interrupt() stops it quickly.
void interruptible_sleep(std::atomic<bool>& flag, double seconds) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < end) {
    if (flag.load()) py_raise("KeyboardInterrupt", "");
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

}  // namespace

void FakeSession::Eval::exec(const Stmt& st) {
  switch (st.kind) {
    case Stmt::Kind::Pass:
      return;
    case Stmt::Kind::Import:
      for (const auto& [name, path] : st.imports) {
        static const char* known[] = {"torch", "torch.nn", "torch.cuda", "torch.optim", "time", "math",
                                      "torch.nn.functional", "numpy"};
        bool ok = false;
        for (const char* k : known) ok = ok || path == k;
        if (!ok) py_raise("ModuleNotFoundError", "No module named '" + path + "'");
        bool found = false;
        for (auto& g : s.globals_)
          if (g.first == name) {
            g.second = Value::ns(path);
            found = true;
          }
        if (!found) s.globals_.emplace_back(name, Value::ns(path));
      }
      return;
    case Stmt::Kind::WhileTrue:
      // A runaway loop: spins until interrupted (the Stop button and Ctrl+C must end it).
      while (true) {
        if (s.interrupt_.load()) py_raise("KeyboardInterrupt", "");
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
    case Stmt::Kind::Unsupported:
      py_raise("NotImplementedError", "the preview runner does not run '" + st.keyword +
                                          "' statements yet (the embedded Python interpreter is not built in)");
    case Stmt::Kind::Del:
      for (const auto& t : st.targets) del(*t);
      return;
    case Stmt::Kind::Assign: {
      s.pending_target_ = st.targets.front()->source;
      ValuePtr v = eval(*st.value);
      s.pending_target_.clear();
      for (const auto& t : st.targets) assign(*t, v);
      return;
    }
    case Stmt::Kind::Expr: {
      ValuePtr v = eval(*st.value);
      (void)v;  // a bare expression's result dies here (e.g. `x.to('cuda')` frees its copy at once)
      return;
    }
  }
}

ValuePtr FakeSession::Eval::lookup(const std::string& name) {
  for (auto& g : s.globals_)
    if (g.first == name) return g.second;
  static const char* builtins[] = {"print", "len", "id", "str", "type", "isinstance", "list", "range", "int", "float"};
  for (const char* b : builtins)
    if (name == b) return Value::ns(std::string("builtins.") + b);
  py_raise("NameError", "name '" + name + "' is not defined");
}

ValuePtr FakeSession::Eval::eval(const Expr& e) {
  if (s.interrupt_.load()) py_raise("KeyboardInterrupt", "");
  switch (e.kind) {
    case Expr::Kind::Name: return lookup(e.text);
    case Expr::Kind::Int: return Value::integer(int64_t(e.number));
    case Expr::Kind::Float: return Value::real(e.number);
    case Expr::Kind::Str: return Value::string(e.text);
    case Expr::Kind::True: return Value::boolean(true);
    case Expr::Kind::False: return Value::boolean(false);
    case Expr::Kind::None: return Value::none();
    case Expr::Kind::FStr: {
      std::string out;
      for (size_t i = 0; i < e.text.size(); ++i) {
        if (e.text[i] == '{' && i + 1 < e.text.size() && e.text[i + 1] == '{') { out += '{'; ++i; continue; }
        if (e.text[i] == '}' && i + 1 < e.text.size() && e.text[i + 1] == '}') { out += '}'; ++i; continue; }
        if (e.text[i] != '{') { out += e.text[i]; continue; }
        const size_t close = e.text.find('}', i);
        if (close == std::string::npos) py_raise("SyntaxError", "f-string: expecting '}'");
        std::string inner = e.text.substr(i + 1, close - i - 1);
        bool want_repr = false;
        if (size_t bang = inner.rfind("!r"); bang != std::string::npos && bang + 2 == inner.size()) {
          want_repr = true;
          inner.resize(bang);
        }
        if (size_t colon = inner.find(':'); colon != std::string::npos) inner.resize(colon);  // format specs ignored
        ValuePtr v = eval(*fake::parse_expression(inner));
        out += want_repr ? repr(v) : str(v);
        i = close;
      }
      return Value::string(out);
    }
    case Expr::Kind::Attr: return attribute(eval(*e.base), e.text);
    case Expr::Kind::Call: {
      ValuePtr fn = eval(*e.base);
      std::vector<ValuePtr> args;
      for (const auto& a : e.args) args.push_back(eval(*a));
      std::vector<std::pair<std::string, ValuePtr>> kwargs;
      for (const auto& [k, a] : e.kwargs) kwargs.emplace_back(k, eval(*a));
      // Who a copy belongs to (transfer records): the expression the method was called on.
      if (fn->kind == Kind::Method && e.base->kind == Expr::Kind::Attr) {
        s.pending_module_path_ = e.base->base->source;
        s.runtime_->set_owner_hint(e.base->base->source);
      }
      ValuePtr r = call(fn, std::move(args), std::move(kwargs));
      s.runtime_->set_owner_hint("");
      return r;
    }
    case Expr::Kind::Subscript: return subscript(eval(*e.base), eval(*e.index));
    case Expr::Kind::List:
    case Expr::Kind::Tuple: {
      auto v = std::make_shared<Value>();
      v->kind = e.kind == Expr::Kind::List ? Kind::List : Kind::Tuple;
      for (const auto& a : e.args) v->items.push_back(eval(*a));
      return v;
    }
    case Expr::Kind::BinOp: return binop(e.text, eval(*e.base), eval(*e.index));
    case Expr::Kind::Neg: {
      ValuePtr v = eval(*e.base);
      if (v->kind == Kind::Int) return Value::integer(-int64_t(v->num));
      if (v->kind == Kind::Float) return Value::real(-v->num);
      if (v->kind == Kind::Tensor) return Value::of(make_tensor(v->tensor->storage->place(), v->tensor->dtype, v->tensor->shape, Role::Activation));
      py_raise("TypeError", "bad operand type for unary -: '" + type_name(v) + "'");
    }
  }
  py_raise("SyntaxError", "invalid syntax");
}

ValuePtr FakeSession::Eval::subscript(const ValuePtr& obj, const ValuePtr& index) {
  auto int_index = [&](size_t n) {
    if (index->kind != Kind::Int) py_raise("TypeError", type_name(obj) + " indices must be integers, not " + type_name(index));
    int64_t i = int64_t(index->num);
    if (i < 0) i += int64_t(n);
    if (i < 0 || i >= int64_t(n)) py_raise("IndexError", "index " + std::to_string(int64_t(index->num)) + " is out of range");
    return size_t(i);
  };
  if (obj->kind == Kind::List || obj->kind == Kind::Tuple || obj->kind == Kind::Size) return obj->items[int_index(obj->items.size())];
  if (obj->kind == Kind::Module && (obj->module->type == "Sequential" || obj->module->type == "ModuleList"))
    return Value::of(obj->module->children[int_index(obj->module->children.size())].second);
  if (obj->kind == Kind::Tensor) {
    const fake::TensorPtr& t = obj->tensor;
    if (t->shape.empty()) py_raise("IndexError", "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` in C++ to convert a 0-dim tensor to a number");
    int_index(size_t(t->shape[0]));
    // A view: same storage, one dimension less.
    auto v = std::make_shared<fake::TensorObj>(*t);
    v->parameter = false;
    v->shape.erase(v->shape.begin());
    return Value::of(v);
  }
  py_raise("TypeError", "'" + type_name(obj) + "' object is not subscriptable");
}

ValuePtr FakeSession::Eval::binop(const std::string& op, const ValuePtr& l, const ValuePtr& r) {
  if (op == "is") return Value::boolean(l->identity() == r->identity());
  if (op == "is not") return Value::boolean(l->identity() != r->identity());
  const bool ln = l->kind == Kind::Int || l->kind == Kind::Float || l->kind == Kind::Bool;
  const bool rn = r->kind == Kind::Int || r->kind == Kind::Float || r->kind == Kind::Bool;
  if (op == "==" || op == "!=") {
    bool eq;
    if (ln && rn) eq = l->num == r->num;
    else if (l->kind != r->kind) eq = false;
    else if (l->kind == Kind::Str || l->kind == Kind::Device || l->kind == Kind::Namespace) eq = l->str == r->str;
    else if (l->kind == Kind::DType) eq = l->dtype == r->dtype;
    else if (l->kind == Kind::Size) eq = str(l) == str(r);
    else eq = l->identity() == r->identity();
    return Value::boolean(op == "==" ? eq : !eq);
  }
  if (ln && rn) {
    const bool is_int = l->kind != Kind::Float && r->kind != Kind::Float && op != "/";
    double v = 0;
    if (op == "+") v = l->num + r->num;
    else if (op == "-") v = l->num - r->num;
    else if (op == "*") v = l->num * r->num;
    else if (op == "/" || op == "//") {
      if (r->num == 0) py_raise("ZeroDivisionError", "division by zero");
      v = op == "/" ? l->num / r->num : std::floor(l->num / r->num);
    } else if (op == "%") v = std::fmod(l->num, r->num);
    else py_raise("TypeError", "unsupported operand type(s) for " + op + ": '" + type_name(l) + "' and '" + type_name(r) + "'");
    return is_int ? Value::integer(int64_t(v)) : Value::real(v);
  }
  if (l->kind == Kind::Str && r->kind == Kind::Str && op == "+") return Value::string(l->str + r->str);
  if (l->kind == Kind::List && r->kind == Kind::List && op == "+") {
    auto v = std::make_shared<Value>(*l);
    v->items.insert(v->items.end(), r->items.begin(), r->items.end());
    return v;
  }
  if (l->kind != Kind::Tensor && r->kind != Kind::Tensor)
    py_raise("TypeError", "unsupported operand type(s) for " + op + ": '" + type_name(l) + "' and '" + type_name(r) + "'");

  // Tensor arithmetic: the result lives on the inputs' device; mixing devices raises PyTorch's error.
  const fake::TensorPtr a = l->kind == Kind::Tensor ? l->tensor : nullptr;
  const fake::TensorPtr b = r->kind == Kind::Tensor ? r->tensor : nullptr;
  if (a && b) {
    const std::string da = device_str(a), db = device_str(b);
    const bool a_scalar_cpu = a->shape.empty() && da == "cpu", b_scalar_cpu = b->shape.empty() && db == "cpu";
    if (da != db && !(a_scalar_cpu || b_scalar_cpu)) {
      if (op == "@")
        py_raise("RuntimeError", "Expected all tensors to be on the same device, but got mat2 is on " + db +
                                     ", different from other tensors on " + da + " (when checking argument in method wrapper_" +
                                     std::string(da == "cpu" ? "CPU" : "CUDA") + "_mm)");
      const std::string first = da != "cpu" ? da : db, second = da != "cpu" ? db : da;
      py_raise("RuntimeError", "Expected all tensors to be on the same device, but found at least two devices, " + first +
                                   " and " + second + "!");
    }
  }
  const fake::TensorPtr base = (a && !(a->shape.empty() && b && !b->shape.empty())) ? a : b;
  std::vector<int64_t> shape = base->shape;
  if (op == "@") {
    if (!a || !b || a->shape.empty() || b->shape.empty()) py_raise("RuntimeError", "both arguments to matmul need to be at least 1D");
    const int64_t k1 = a->shape.back(), k2 = b->shape.size() >= 2 ? b->shape[b->shape.size() - 2] : b->shape[0];
    if (k1 != k2) {
      auto dims = [](const std::vector<int64_t>& sh) {
        return std::to_string(sh.size() >= 2 ? sh[sh.size() - 2] : 1) + "x" + std::to_string(sh.back());
      };
      py_raise("RuntimeError", "mat1 and mat2 shapes cannot be multiplied (" + dims(a->shape) + " and " + dims(b->shape) + ")");
    }
    shape = a->shape;
    if (b->shape.size() >= 2) shape.back() = b->shape.back();
    else shape.pop_back();
  } else if (a && b && a->numel() < b->numel()) {
    shape = b->shape;
  }
  return Value::of(make_tensor(base->storage->place(), base->dtype, shape, Role::Activation));
}

void FakeSession::Eval::assign(const Expr& target, const ValuePtr& value) {
  if (target.kind == Expr::Kind::Name) {
    for (auto& g : s.globals_)
      if (g.first == target.text) {
        g.second = value;
        return;
      }
    s.globals_.emplace_back(target.text, value);
    return;
  }
  ValuePtr obj = eval(*target.base);
  if (target.kind == Expr::Kind::Attr) {
    if (obj->kind == Kind::Module) return set_module_attr(obj->module, target.text, value);
    if (obj->kind == Kind::Tensor && target.text == "data" && value->kind == Kind::Tensor) {
      obj->tensor->storage = value->tensor->storage;  // `t.data = other` keeps t's identity
      obj->tensor->dtype = value->tensor->dtype;
      obj->tensor->shape = value->tensor->shape;
      return;
    }
    py_raise("AttributeError", "'" + type_name(obj) + "' object attribute '" + target.text + "' is read-only");
  }
  // Subscript assignment: list items and ModuleList/Sequential slots.
  ValuePtr index = eval(*target.index);
  if (obj->kind == Kind::List && index->kind == Kind::Int) {
    int64_t i = int64_t(index->num);
    if (i < 0) i += int64_t(obj->items.size());
    if (i < 0 || i >= int64_t(obj->items.size())) py_raise("IndexError", "list assignment index out of range");
    obj->items[size_t(i)] = value;
    return;
  }
  if (obj->kind == Kind::Module && index->kind == Kind::Int && value->kind == Kind::Module) {
    auto& ch = obj->module->children;
    int64_t i = int64_t(index->num);
    if (i < 0) i += int64_t(ch.size());
    if (i < 0 || i >= int64_t(ch.size())) py_raise("IndexError", "index " + std::to_string(int64_t(index->num)) + " is out of range");
    ch[size_t(i)].second = value->module;
    return;
  }
  if (obj->kind == Kind::Tensor) return;  // t[0] = value writes in place: nothing moves
  py_raise("TypeError", "'" + type_name(obj) + "' object does not support item assignment");
}

void FakeSession::Eval::del(const Expr& target) {
  if (target.kind == Expr::Kind::Name) {
    for (auto it = s.globals_.begin(); it != s.globals_.end(); ++it)
      if (it->first == target.text) {
        s.globals_.erase(it);
        return;
      }
    py_raise("NameError", "name '" + target.text + "' is not defined");
  }
  if (target.kind == Expr::Kind::Attr) {
    ValuePtr obj = eval(*target.base);
    if (obj->kind == Kind::Module) {
      fake::ModuleObj& m = *obj->module;
      auto erase = [&](auto& list) {
        for (auto it = list.begin(); it != list.end(); ++it)
          if (it->first == target.text) {
            list.erase(it);
            return true;
          }
        return false;
      };
      if (erase(m.params) || erase(m.buffers) || erase(m.children) || erase(m.attrs)) return;
    }
    py_raise("AttributeError", target.text);
  }
  py_raise("TypeError", "the preview runner can only delete names and attributes");
}

ValuePtr FakeSession::Eval::call(const ValuePtr& fn, std::vector<ValuePtr> args, std::vector<std::pair<std::string, ValuePtr>> kwargs) {
  if (fn->kind == Kind::Method) {
    if (fn->self->kind == Kind::Tensor) return call_tensor_method(fn->self, fn->str, args, kwargs);
    if (fn->self->kind == Kind::Module) return call_module_method(fn->self, fn->str, args, kwargs);
    if (fn->self->kind == Kind::List && fn->str == "append" && args.size() == 1) {
      fn->self->items.push_back(args[0]);
      return Value::none();
    }
    py_raise("AttributeError", "'" + type_name(fn->self) + "' object has no attribute '" + fn->str + "'");
  }
  if (fn->kind == Kind::Module) {
    if (args.size() != 1) py_raise("TypeError", "forward() takes 2 positional arguments but " + std::to_string(args.size() + 1) + " were given");
    return forward(fn->module, args[0]);
  }
  if (fn->kind != Kind::Namespace) py_raise("TypeError", "'" + type_name(fn) + "' object is not callable");
  const std::string& path = fn->str;
  if (path == "builtins.print") {
    std::string sep = " ", end = "\n";
    for (const auto& [k, v] : kwargs) {
      if (k == "sep") sep = str(v);
      if (k == "end") end = str(v);
    }
    std::string line;
    for (size_t i = 0; i < args.size(); ++i) line += (i ? sep : "") + str(args[i]);
    s.output_ += line + end;
    return Value::none();
  }
  if (path == "builtins.len") {
    if (args.size() != 1) py_raise("TypeError", "len() takes exactly one argument (" + std::to_string(args.size()) + " given)");
    const ValuePtr& a = args[0];
    if (a->kind == Kind::List || a->kind == Kind::Tuple || a->kind == Kind::Size) return Value::integer(int64_t(a->items.size()));
    if (a->kind == Kind::Str) return Value::integer(int64_t(a->str.size()));
    if (a->kind == Kind::Tensor) {
      if (a->tensor->shape.empty()) py_raise("TypeError", "len() of a 0-d tensor");
      return Value::integer(a->tensor->shape[0]);
    }
    if (a->kind == Kind::Module) return Value::integer(int64_t(a->module->children.size()));
    py_raise("TypeError", "object of type '" + type_name(a) + "' has no len()");
  }
  if (path == "builtins.id" && args.size() == 1) return Value::integer(int64_t(reinterpret_cast<uintptr_t>(args[0]->identity()) & 0xffffffffffff));
  if (path == "builtins.str" && args.size() == 1) return Value::string(str(args[0]));
  if (path == "builtins.type" && args.size() == 1) return Value::string("<class '" + type_name(args[0]) + "'>");
  if (path == "builtins.int" && args.size() == 1 && (args[0]->kind == Kind::Float || args[0]->kind == Kind::Int)) return Value::integer(int64_t(args[0]->num));
  if (path == "builtins.float" && args.size() == 1 && (args[0]->kind == Kind::Float || args[0]->kind == Kind::Int)) return Value::real(args[0]->num);
  if (path == "builtins.list" && args.size() == 1 && (args[0]->kind == Kind::List || args[0]->kind == Kind::Tuple)) {
    auto v = std::make_shared<Value>(*args[0]);
    v->kind = Kind::List;
    return v;
  }
  if (path == "time.sleep") {
    if (args.size() != 1 || (args[0]->kind != Kind::Int && args[0]->kind != Kind::Float)) py_raise("TypeError", "sleep() takes exactly one number");
    interruptible_sleep(s.interrupt_, args[0]->num);
    return Value::none();
  }
  return call_torch(path, args, kwargs);
}

}  // namespace ds::gui
