// Errors a user can cause, carrying the Python exception type PyTorch would raise.
// The Python bindings translate each kind to the matching Python exception class.
#pragma once

#include <stdexcept>
#include <string>

namespace ds {

enum class ErrorKind {
  RuntimeError,
  TypeError,
  ValueError,
  KeyError,
  IndexError,
  AttributeError,
  AssertionError,
  NotImplementedError,
  OutOfMemoryError,  // torch.cuda.OutOfMemoryError (a RuntimeError subclass)
};

class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
  ErrorKind kind() const { return kind_; }

 private:
  ErrorKind kind_;
};

[[noreturn]] inline void raise(ErrorKind kind, const std::string& message) { throw Error(kind, message); }

// TORCH_CHECK-style guard: raises RuntimeError (or `kind`) with `message` when `cond` is false.
inline void check(bool cond, const std::string& message, ErrorKind kind = ErrorKind::RuntimeError) {
  if (!cond) raise(kind, message);
}
// A literal message makes no std::string (a heap allocation past 15 characters) unless the check fails.
inline void check(bool cond, const char* message, ErrorKind kind = ErrorKind::RuntimeError) {
  if (!cond) raise(kind, message);
}
// The same where the message costs something to build (it is only built when the check fails):
// check_lazy(ok, [&] { return "bad shape " + shape_text(sizes); }). Hot paths use this one.
template <typename MakeMessage>
inline void check_lazy(bool cond, MakeMessage&& make_message, ErrorKind kind = ErrorKind::RuntimeError) {
  if (!cond) raise(kind, make_message());
}

}  // namespace ds
