// Shared by the fuzz targets: how a finding is reported (message, then abort so libFuzzer saves the
// input as crash-<sha1>), and the rule that user input may only ever raise ds::Error.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "core/errors.h"

namespace ds_fuzz {

[[noreturn]] inline void finding(const std::string& what) {
  std::fprintf(stderr, "\n==== FUZZ FINDING: %s\n", what.c_str());
  std::fflush(stderr);
  std::abort();
}

// Runs `parse`; a ds::Error is the documented refusal, anything else thrown is a bug.
template <typename F>
bool parses(const char* target, F&& parse) {
  try {
    parse();
    return true;
  } catch (const ds::Error&) {
    return false;
  } catch (const std::exception& e) {
    finding(std::string(target) + " threw a non-ds::Error exception: " + e.what());
  } catch (...) {
    finding(std::string(target) + " threw a non-standard exception");
  }
}

}  // namespace ds_fuzz
