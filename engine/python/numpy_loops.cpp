// numpy_loops.h: numpy's float64 exp / tanh loops, looked up once in the ufunc objects.
#include "numpy_loops.h"

#include <Python.h>

#include <cstring>

namespace ds::python::numpy_loops {
namespace {

// The head of numpy's PyUFuncObject (numpy/ufuncobject.h, the same from numpy 1.7 to 2.x): read without numpy's
// headers, so the build needs none. The lookup checks what it reads (type name, arity, the ufunc's own name)
// before trusting a loop pointer.
using Loop = void (*)(char** args, const Py_ssize_t* dimensions, const Py_ssize_t* steps, void* data);
struct UFuncHead {
  PyObject_HEAD
  int nin, nout, nargs;
  int identity;
  Loop* functions;
  void** data;
  int ntypes;
  int reserved1;
  const char* name;
  const char* types;
};

constexpr char kNpyDouble = 12;  // NPY_DOUBLE in numpy's type enum (stable since numpy 1.0)

struct Found {
  Loop fn = nullptr;
  void* data = nullptr;
};

// numpy.<name>'s d->d loop, or nothing (numpy missing, another layout).
Found lookup(PyObject* numpy, const char* name) {
  Found out;
  PyObject* uf = PyObject_GetAttrString(numpy, name);
  if (!uf) {
    PyErr_Clear();
    return out;
  }
  // (the ufunc stays referenced: numpy keeps its loops for the interpreter's lifetime)
  if (std::strcmp(Py_TYPE(uf)->tp_name, "numpy.ufunc") != 0) return out;
  const auto* h = reinterpret_cast<const UFuncHead*>(uf);
  if (h->nin != 1 || h->nout != 1 || h->nargs != 2 || !h->name || std::strcmp(h->name, name) != 0 || !h->types ||
      !h->functions || h->ntypes <= 0 || h->ntypes > 64)
    return out;
  for (int i = 0; i < h->ntypes; ++i) {
    if (h->types[2 * i] == kNpyDouble && h->types[2 * i + 1] == kNpyDouble && h->functions[i]) {
      out.fn = h->functions[i];
      out.data = h->data ? h->data[i] : nullptr;
      return out;
    }
  }
  return out;
}

struct Loops {
  bool tried = false;
  Found exp, tanh;
};

Loops& loops() {
  static Loops l;
  if (!l.tried) {
    l.tried = true;
    if (PyObject* numpy = PyImport_ImportModule("numpy")) {
      l.exp = lookup(numpy, "exp");
      l.tanh = lookup(numpy, "tanh");
      Py_DECREF(numpy);
    } else {
      PyErr_Clear();
    }
  }
  return l;
}

void run(const Found& f, const double* in, double* out, int64_t n) {
  if (n <= 0) return;
  char* args[2] = {reinterpret_cast<char*>(const_cast<double*>(in)), reinterpret_cast<char*>(out)};
  const Py_ssize_t dims[1] = {Py_ssize_t(n)};
  const Py_ssize_t steps[2] = {sizeof(double), sizeof(double)};  // contiguous: numpy's SIMD path, as np.exp takes it
  f.fn(args, dims, steps, f.data);
}

}  // namespace

bool available() {
  const Loops& l = loops();
  return l.exp.fn && l.tanh.fn;
}

void exp_f64(const double* in, double* out, int64_t n) { run(loops().exp, in, out, n); }
void tanh_f64(const double* in, double* out, int64_t n) { run(loops().tanh, in, out, n); }

}  // namespace ds::python::numpy_loops
