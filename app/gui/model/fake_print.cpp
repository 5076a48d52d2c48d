// How the preview runner prints values (print(), f-strings, messages): PyTorch's reprs where it can.
#include "gui/model/fake_eval.h"

#include <cstdio>

namespace ds::gui {

using fake::Value;
using fake::ValuePtr;
using Kind = Value::Kind;

std::string FakeSession::Eval::device_str(const fake::TensorPtr& t) {
  const Place p = t->storage->place();
  return p.kind == MemoryKind::Device ? "cuda:" + std::to_string(p.device) : "cpu";
}

std::string FakeSession::Eval::type_name(const ValuePtr& v) {
  switch (v->kind) {
    case Kind::None: return "NoneType";
    case Kind::Bool: return "bool";
    case Kind::Int: return "int";
    case Kind::Float: return "float";
    case Kind::Str: return "str";
    case Kind::Tensor:
      if (v->tensor->parameter) return "Parameter";
      return std::string("torch.") + (v->tensor->storage->place().kind == MemoryKind::Device ? "cuda." : "") +
             legacy_type_name(v->tensor->dtype);
    case Kind::Module: return v->module->type;
    case Kind::List: return "list";
    case Kind::Tuple: return "tuple";
    case Kind::Namespace: return "module";
    case Kind::Device: return "torch.device";
    case Kind::DType: return "torch.dtype";
    case Kind::Size: return "torch.Size";
    case Kind::Method: return "method";
  }
  return "object";
}

std::string FakeSession::Eval::str(const ValuePtr& v) {
  if (v->kind == Kind::Str) return v->str;
  return repr(v);
}

std::string FakeSession::Eval::repr(const ValuePtr& v) {
  switch (v->kind) {
    case Kind::None: return "None";
    case Kind::Bool: return v->num != 0 ? "True" : "False";
    case Kind::Int: return std::to_string(int64_t(v->num));
    case Kind::Float: {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.17g", v->num);
      std::string s = buf;
      // Python's repr: shortest text that reads back; %.17g is close enough for a preview, trimmed.
      std::snprintf(buf, sizeof buf, "%.12g", v->num);
      s = buf;
      if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
      return s;
    }
    case Kind::Str: {
      std::string s = "'";
      for (char c : v->str) s += c == '\'' ? std::string("\\'") : c == '\n' ? std::string("\\n") : std::string(1, c);
      return s + "'";
    }
    case Kind::Device: return v->str;  // print(t.device) shows cuda:0
    case Kind::DType: return "torch." + dtype_name(v->dtype);
    case Kind::Size: {
      std::string s = "torch.Size([";
      for (size_t i = 0; i < v->items.size(); ++i) s += (i ? ", " : "") + repr(v->items[i]);
      return s + "])";
    }
    case Kind::List:
    case Kind::Tuple: {
      std::string s = v->kind == Kind::List ? "[" : "(";
      for (size_t i = 0; i < v->items.size(); ++i) s += (i ? ", " : "") + repr(v->items[i]);
      if (v->kind == Kind::Tuple && v->items.size() == 1) s += ",";
      return s + (v->kind == Kind::List ? "]" : ")");
    }
    case Kind::Namespace: return "<module '" + v->str + "'>";
    case Kind::Method: return "<bound method " + v->str + ">";
    case Kind::Tensor: {
      // The preview has no values to print; it says what PyTorch's repr would place where.
      const fake::TensorPtr& t = v->tensor;
      std::string shape;
      for (size_t i = 0; i < t->shape.size(); ++i) shape += (i ? ", " : "") + std::to_string(t->shape[i]);
      std::string s = "tensor(<" + std::to_string(t->numel()) + " values, shape [" + shape + "]>";
      if (t->storage->place().kind == MemoryKind::Device) s += ", device='" + device_str(t) + "'";
      if (t->dtype != DType::Float32 && t->dtype != DType::Int64) s += ", dtype=torch." + dtype_name(t->dtype);
      s += ")";
      return t->parameter ? "Parameter containing:\n" + s : s;
    }
    case Kind::Module: {
      const fake::ModuleObj& m = *v->module;
      if (m.children.empty()) return m.type + "(" + m.extra + ")";
      std::string s = m.type + "(\n";
      for (const auto& [name, child] : m.children) {
        std::string inner = repr(Value::of(child));
        std::string indented;
        for (char c : inner) indented += c == '\n' ? std::string("\n  ") : std::string(1, c);
        s += "  (" + name + "): " + indented + "\n";
      }
      return s + ")";
    }
  }
  return "<object>";
}

std::string FakeSession::Eval::qualified_owner(const fake::TensorPtr& t) { return t->storage->owner(); }

}  // namespace ds::gui
