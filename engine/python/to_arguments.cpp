// `to(...)` argument parsing, following PyTorch's PythonArgParser for the signatures
//   to(Device device=None, ScalarType dtype=None, bool non_blocking=False, bool copy=False, *, MemoryFormat? memory_format=None)
//   to(ScalarType dtype, bool non_blocking=False, bool copy=False, *, MemoryFormat? memory_format=None)
//   to(Tensor tensor, bool non_blocking=False, bool copy=False, *, MemoryFormat? memory_format=None)
// (torch/csrc/autograd/python_variable_methods.cpp, torch/csrc/utils/python_arg_parser.cpp,
// torch/csrc/utils/invalid_arguments.cpp): the first signature whose parameters all accept the arguments wins.
#include "to_arguments.h"

#include <array>
#include <string>

#include "core/errors.h"

namespace ds::python {
namespace {

PyTypeObject* g_memory_format_type = nullptr;  // kept alive by the torch module that registered it

enum class Kind { Device, ScalarType, Tensor, Bool, MemoryFormat };

struct Param {
  const char* name;
  Kind kind;
  bool optional;      // has a default
  bool allow_none;    // None means "not given" (default None, or an Optional type)
  bool keyword_only;
};

struct Signature {
  std::array<Param, 5> params;
  int count;
  int min_args() const {
    int n = 0;
    for (int i = 0; i < count; ++i) n += params[i].optional ? 0 : 1;
    return n;
  }
  int max_pos_args() const {
    int n = 0;
    for (int i = 0; i < count; ++i) n += params[i].keyword_only ? 0 : 1;
    return n;
  }
};

constexpr Param kNonBlocking{"non_blocking", Kind::Bool, true, false, false};
constexpr Param kCopy{"copy", Kind::Bool, true, false, false};
constexpr Param kMemoryFormat{"memory_format", Kind::MemoryFormat, true, true, true};

const std::array<Signature, 3> kSignatures = {{
    {{{{"device", Kind::Device, true, true, false},
       {"dtype", Kind::ScalarType, true, true, false},
       kNonBlocking, kCopy, kMemoryFormat}},
     5},
    {{{{"dtype", Kind::ScalarType, false, false, false}, kNonBlocking, kCopy, kMemoryFormat}}, 4},
    {{{{"tensor", Kind::Tensor, false, false, false}, kNonBlocking, kCopy, kMemoryFormat}}, 4},
}};

// The signature lines of the error, as PyTorch 2.x prints them (1.13 printed them without the defaults).
const char* kSignatureLines =
    " * (torch.device device = None, torch.dtype dtype = None, bool non_blocking = False, bool copy = False, *, "
    "torch.memory_format memory_format = None)\n"
    " * (torch.dtype dtype, bool non_blocking = False, bool copy = False, *, torch.memory_format memory_format = "
    "None)\n"
    " * (Tensor tensor, bool non_blocking = False, bool copy = False, *, torch.memory_format memory_format = None)\n";

bool is_type(py::handle obj, const py::object& cls) {
  return cls && Py_TYPE(obj.ptr()) == reinterpret_cast<PyTypeObject*>(cls.ptr());
}

bool is_memory_format(py::handle obj) { return g_memory_format_type && Py_TYPE(obj.ptr()) == g_memory_format_type; }

// PyTorch prints Py_TYPE(obj)->tp_name; DeviceScope's dtype/device/memory_format are Python classes, so their
// C-extension names are spelled out here.
std::string type_name(py::handle obj) {
  const PyTypes& t = py_types();
  if (is_type(obj, t.dtype_cls)) return "torch.dtype";
  if (is_type(obj, t.device_cls)) return "torch.device";
  if (is_memory_format(obj)) return "torch.memory_format";
  return Py_TYPE(obj.ptr())->tp_name;
}

std::string kind_name(Kind k) {
  switch (k) {
    case Kind::Device: return "torch.device";
    case Kind::ScalarType: return "torch.dtype";
    case Kind::Tensor: return "Tensor";
    case Kind::Bool: return "bool";
    case Kind::MemoryFormat: return "torch.memory_format";
  }
  return "";
}

bool is_python_scalar_type(py::handle obj) {
  PyObject* p = obj.ptr();
  return p == reinterpret_cast<PyObject*>(&PyFloat_Type) || p == reinterpret_cast<PyObject*>(&PyLong_Type) ||
         p == reinterpret_cast<PyObject*>(&PyBool_Type) || p == reinterpret_cast<PyObject*>(&PyComplex_Type);
}

// FunctionParameter::check. `to` is one of the functions that take Python numbers as tensors.
bool accepts(Kind kind, py::handle obj) {
  PyObject* p = obj.ptr();
  switch (kind) {
    case Kind::Device:
      return (PyLong_Check(p) && !PyBool_Check(p)) || PyUnicode_Check(p) || is_type(obj, py_types().device_cls);
    case Kind::ScalarType: return is_type(obj, py_types().dtype_cls) || is_python_scalar_type(obj);
    case Kind::Tensor: return is_tensor(obj) || PyFloat_Check(p) || PyLong_Check(p) || PyComplex_Check(p);
    case Kind::Bool: return PyBool_Check(p);
    case Kind::MemoryFormat: return is_memory_format(obj);
  }
  return false;
}

// FunctionSignature::parse: fills `values` (null = not given) or, with `raise_errors`, throws this
// signature's own error.
bool match(const Signature& sig, const py::tuple& args, const py::dict& kwargs, bool raise_errors,
           std::array<py::object, 5>& values) {
  const int nargs = int(args.size());
  int remaining_kwargs = int(kwargs.size());
  auto extra_args = [&]() {
    raise(ErrorKind::TypeError, "to() takes from " + std::to_string(sig.min_args()) + " to " +
                                    std::to_string(sig.max_pos_args()) + " positional arguments but " +
                                    std::to_string(nargs) + " were given");
  };
  if (nargs > sig.max_pos_args()) {
    if (raise_errors) extra_args();
    return false;
  }
  int arg_pos = 0;
  for (int i = 0; i < sig.count; ++i) {
    const Param& param = sig.params[i];
    py::object obj;
    bool is_kwd = false;
    if (arg_pos < nargs) {
      obj = args[arg_pos];
    } else {
      if (kwargs.contains(param.name)) obj = kwargs[param.name];
      is_kwd = true;
    }
    if ((!obj && param.optional) || (obj && obj.is_none() && param.allow_none)) {
      values[i] = py::object();
    } else if (!obj) {
      if (raise_errors)
        raise(ErrorKind::TypeError,
              std::string("to() missing 1 required positional argument: \"") + param.name + "\"");
      return false;
    } else if (accepts(param.kind, obj)) {
      values[i] = obj;
    } else {
      if (raise_errors) {
        const std::string where = is_kwd ? "" : " (position " + std::to_string(arg_pos + 1) + ")";
        raise(ErrorKind::TypeError, std::string("to(): argument '") + param.name + "'" + where + " must be " +
                                        kind_name(param.kind) + ", not " + type_name(obj));
      }
      return false;
    }
    if (!is_kwd) ++arg_pos;
    else if (obj) --remaining_kwargs;
  }
  if (remaining_kwargs > 0) {
    if (raise_errors) {
      for (auto kv : kwargs) {
        const std::string key = py::str(kv.first);
        int index = -1;
        for (int i = 0; i < sig.count; ++i)
          if (key == sig.params[i].name) index = i;
        if (index < 0) raise(ErrorKind::TypeError, "to() got an unexpected keyword argument '" + key + "'");
        if (index < nargs) raise(ErrorKind::TypeError, "to() got multiple values for argument '" + key + "'");
      }
      raise(ErrorKind::TypeError, "invalid keyword arguments");
    }
    return false;
  }
  return true;
}

// PythonArgParser::print_error: the one signature that fits the argument count explains itself; otherwise
// format_invalid_args lists every signature ("T, " per argument, "name=T, " per keyword, the trailing ", "
// dropped only when there are positional arguments).
[[noreturn]] void invalid_arguments(const py::tuple& args, const py::dict& kwargs) {
  const int num_args = int(args.size() + kwargs.size());
  const Signature* only = nullptr;
  int plausible = 0;
  for (const Signature& sig : kSignatures) {
    if (num_args >= sig.min_args() && num_args <= sig.count) {
      ++plausible;
      only = &sig;
    }
  }
  if (plausible == 1) {
    std::array<py::object, 5> unused;
    match(*only, args, kwargs, true, unused);
  }
  std::string got;
  for (py::handle a : args) got += type_name(a) + ", ";
  for (auto kv : kwargs) got += py::str(kv.first).cast<std::string>() + "=" + type_name(kv.second) + ", ";
  if (args.size() > 0) got.erase(got.size() - 2);
  raise(ErrorKind::TypeError,
        "to() received an invalid combination of arguments - got (" + got + "), but expected one of:\n" +
            kSignatureLines);
}

Device device_of(py::handle obj) {
  Device d;
  device_from_py(obj, d);  // accepts() admitted only forms device_from_py reads
  return d;
}

DType dtype_of(py::handle obj) {
  PyObject* p = obj.ptr();
  if (p == reinterpret_cast<PyObject*>(&PyFloat_Type)) return DType::Float64;
  if (p == reinterpret_cast<PyObject*>(&PyLong_Type)) return DType::Int64;
  if (p == reinterpret_cast<PyObject*>(&PyBool_Type)) return DType::Bool;
  if (p == reinterpret_cast<PyObject*>(&PyComplex_Type))
    raise(ErrorKind::NotImplementedError, "DeviceScope does not model complex tensors");
  DType t;
  dtype_from_py(obj, t);
  return t;
}

// A Python number stands for the CPU tensor PyTorch would wrap it in (scalar_to_tensor).
void take_tensor(py::handle obj, ToOptions& o) {
  PyObject* p = obj.ptr();
  if (!is_tensor(obj)) {
    if (PyComplex_Check(p)) raise(ErrorKind::NotImplementedError, "DeviceScope does not model complex tensors");
    o.device = Device(DeviceType::CPU);
    o.dtype = PyBool_Check(p) ? DType::Bool : PyLong_Check(p) ? DType::Int64 : DType::Float64;
    return;
  }
  TensorPtr t = impl_of(obj);
  o.device = t->device();
  o.dtype = t->dtype();
}

}  // namespace

void register_memory_format_type(py::handle cls) {
  g_memory_format_type = reinterpret_cast<PyTypeObject*>(cls.ptr());
}

ToArguments parse_to_arguments(const py::tuple& args, const py::dict& kwargs) {
  std::array<py::object, 5> v;
  size_t form = 0;
  while (form < kSignatures.size() && !match(kSignatures[form], args, kwargs, false, v)) ++form;
  if (form == kSignatures.size()) invalid_arguments(args, kwargs);

  ToArguments out;
  ToOptions& o = out.options;
  int rest = 1;  // index of non_blocking in the matched signature
  if (form == 0) {
    if (v[0]) o.device = device_of(v[0]);
    if (v[1]) o.dtype = dtype_of(v[1]);
    rest = 2;
  } else if (form == 1) {
    o.dtype = dtype_of(v[0]);
  } else {
    take_tensor(v[0], o);
  }
  if (v[rest]) o.non_blocking = v[rest].ptr() == Py_True;
  if (v[rest + 1]) {
    out.copy_given = true;
    o.copy = v[rest + 1].ptr() == Py_True;
  }
  if (v[rest + 2]) out.memory_format = v[rest + 2];
  return out;
}

}  // namespace ds::python
