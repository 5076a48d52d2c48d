// Python lines for the Builder's actions, with argument checks done before anything runs.
#include "gui/view_state/builder_lines.h"

#include <cctype>

namespace ds::gui {

bool is_identifier(const std::string& s) {
  static const char* keywords[] = {"False", "None", "True", "and", "as", "assert", "async", "await", "break", "class",
                                   "continue", "def", "del", "elif", "else", "except", "finally", "for", "from",
                                   "global", "if", "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass",
                                   "raise", "return", "try", "while", "with", "yield"};
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  for (const char* k : keywords)
    if (s == k) return false;
  return true;
}

bool is_reference(const std::string& s) {
  size_t i = 0;
  auto ident = [&] {
    const size_t b = i;
    while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_')) ++i;
    return is_identifier(s.substr(b, i - b));
  };
  if (!ident()) return false;
  while (i < s.size()) {
    if (s[i] == '.') {
      ++i;
      if (!ident()) return false;
    } else if (s[i] == '[') {
      const size_t b = ++i;
      while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
      if (i == b || i >= s.size() || s[i] != ']') return false;
      ++i;
    } else {
      return false;
    }
  }
  return true;
}

namespace {

bool shape_ok(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!(std::isdigit(static_cast<unsigned char>(c)) || c == ',' || c == ' ')) return false;
  return std::isdigit(static_cast<unsigned char>(s[0]));
}

std::string quote(const std::string& s) { return "\"" + s + "\""; }

}  // namespace

std::string build_line(BuildKind kind, const BuildArgs& a, std::string* error) {
  auto fail = [&](const std::string& why) {
    if (error) *error = why;
    return std::string();
  };
  auto need_target = [&]() { return is_identifier(a.target); };
  auto need_source = [&]() { return is_reference(a.source); };
  const std::string nb = a.non_blocking ? ", non_blocking=True" : "";
  const std::string assign = a.target.empty() ? "" : a.target + " = ";
  switch (kind) {
    case BuildKind::Linear:
    case BuildKind::Conv2d:
    case BuildKind::BatchNorm1d:
    case BuildKind::BatchNorm2d:
    case BuildKind::LayerNorm:
    case BuildKind::Embedding:
    case BuildKind::Sequential:
    case BuildKind::ModuleList:
    case BuildKind::EmptyModule:
    case BuildKind::Tensor: {
      if (!need_target()) return fail("'" + a.target + "' is not a Python name");
      const std::string bias = a.bias ? "" : ", bias=False";
      auto pos = [&](int64_t v, const char* what) { return v > 0 ? std::string() : std::string(what) + " must be positive"; };
      std::string why;
      switch (kind) {
        case BuildKind::Linear:
          if (!(why = pos(a.a, "in_features") + pos(a.b, "out_features")).empty()) return fail(why);
          return a.target + " = nn.Linear(" + std::to_string(a.a) + ", " + std::to_string(a.b) + bias + ")";
        case BuildKind::Conv2d:
          if (!(why = pos(a.a, "in_channels") + pos(a.b, "out_channels") + pos(a.c, "kernel_size")).empty()) return fail(why);
          return a.target + " = nn.Conv2d(" + std::to_string(a.a) + ", " + std::to_string(a.b) + ", " + std::to_string(a.c) + bias + ")";
        case BuildKind::BatchNorm1d:
        case BuildKind::BatchNorm2d:
        case BuildKind::LayerNorm:
          if (!(why = pos(a.a, "num_features")).empty()) return fail(why);
          return a.target + " = nn." + (kind == BuildKind::BatchNorm1d ? "BatchNorm1d" : kind == BuildKind::BatchNorm2d ? "BatchNorm2d" : "LayerNorm") +
                 "(" + std::to_string(a.a) + ")";
        case BuildKind::Embedding:
          if (!(why = pos(a.a, "num_embeddings") + pos(a.b, "embedding_dim")).empty()) return fail(why);
          return a.target + " = nn.Embedding(" + std::to_string(a.a) + ", " + std::to_string(a.b) + ")";
        case BuildKind::Sequential: return a.target + " = nn.Sequential(" + a.items + ")";
        case BuildKind::ModuleList: return a.target + " = nn.ModuleList([" + a.items + "])";
        case BuildKind::EmptyModule: return a.target + " = nn.Module()";
        default:
          if (!shape_ok(a.shape)) return fail("sizes must be numbers separated by commas, got '" + a.shape + "'");
          return a.target + " = torch.randn(" + a.shape + (a.device == "cpu" || a.device.empty() ? "" : ", device=" + quote(a.device)) + ")";
      }
    }
    case BuildKind::Parameter:
    case BuildKind::Buffer:
    case BuildKind::PlainAttribute:
      if (!need_source()) return fail("'" + a.source + "' is not a module reference");
      if (!is_identifier(a.attr)) return fail("'" + a.attr + "' is not an attribute name");
      if (!shape_ok(a.shape)) return fail("sizes must be numbers separated by commas, got '" + a.shape + "'");
      if (kind == BuildKind::Parameter) return a.source + "." + a.attr + " = nn.Parameter(torch.randn(" + a.shape + "))";
      if (kind == BuildKind::Buffer) return a.source + ".register_buffer(" + quote(a.attr) + ", torch.zeros(" + a.shape + "))";
      return a.source + "." + a.attr + " = torch.zeros(" + a.shape + ")";
    case BuildKind::Alias:
      if (!need_target()) return fail("'" + a.target + "' is not a Python name");
      if (!need_source()) return fail("'" + a.source + "' is not a reference");
      return a.target + " = " + a.source;
    case BuildKind::Delete:
      if (!need_source()) return fail("'" + a.source + "' is not a reference");
      return "del " + a.source;
    case BuildKind::To:
    case BuildKind::Cuda:
    case BuildKind::Cpu:
    case BuildKind::Half:
    case BuildKind::PinMemory: {
      if (!need_source()) return fail("'" + a.source + "' is not a reference");
      if (!a.in_place && !need_target()) return fail("'" + a.target + "' is not a Python name");
      const std::string lhs = a.in_place ? "" : a.target + " = ";
      if (kind == BuildKind::To) {
        if (a.device.empty()) return fail("choose a device");
        return lhs + a.source + ".to(" + quote(a.device) + nb + ")";
      }
      if (kind == BuildKind::Cuda) return lhs + a.source + ".cuda(" + (a.non_blocking ? "non_blocking=True" : "") + ")";
      if (kind == BuildKind::Cpu) return lhs + a.source + ".cpu()";
      if (kind == BuildKind::Half) return lhs + a.source + ".half()";
      return lhs + a.source + ".pin_memory()";
    }
    case BuildKind::EmptyCache: return "torch.cuda.empty_cache()";
    case BuildKind::Synchronize: return "torch.cuda.synchronize()";
  }
  (void)assign;
  return fail("unknown action");
}

}  // namespace ds::gui
