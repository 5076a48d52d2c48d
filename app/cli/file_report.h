// What the file-reading subcommands (inspect, diff) share: telling a PyTorch snapshot pickle from a
// recording by its first bytes, and printing a report (JSON or text) or refusing with exit 2.
#pragma once

#include <functional>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

namespace ds::cli {

// Whether `path` is a regular file whose first bytes look like a pickle (a PyTorch memory snapshot).
bool starts_like_pickle(const std::string& path);

// A file that cannot be opened at all: said as "devicescope COMMAND: cannot open 'x': why" (exit 2).
struct CannotOpen : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Throws CannotOpen "cannot open 'PATH': No such file or directory" (or the system's reason; "Is a directory")
// unless `path` can be opened for reading.
void check_readable(const std::string& path);

// Builds the report with `make`; prints it as JSON or with `print_text`; exit 0. A failure prints
// "devicescope COMMAND: refused WHAT: why" and exits 2.
int print_report(const std::string& command, const std::string& what, bool as_json,
                 const std::function<nlohmann::json()>& make,
                 const std::function<void(const nlohmann::json&)>& print_text);

}  // namespace ds::cli
