// cuBLAS / cuBLASLt workspace sizes: Note [cuBLAS workspaces] (alloc/blas_workspace.h).
#include "alloc/blas_workspace.h"

#include <cctype>
#include <climits>
#include <cstdlib>

#include "core/errors.h"

namespace ds {
namespace {

// std::stoi on a run of decimal digits (what the regex captured): out of int range raises as stoi does.
uint64_t stoi_digits(const std::string& digits) {
  uint64_t v = 0;
  for (char c : digits) {
    v = v * 10 + uint64_t(c - '0');
    if (v > uint64_t(INT_MAX)) raise(ErrorKind::RuntimeError, "stoi");
  }
  return v;
}

// The digits run starting at s[i]; empty when s[i] is not a digit.
std::string digits_at(const std::string& s, size_t i) {
  size_t j = i;
  while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) ++j;
  return s.substr(i, j - i);
}

}  // namespace

uint64_t default_cublas_workspace_size(int major, int minor) {
  // "/* :4096:2:16:8 default, 32MiB for Hopper */": only compute capability 9.0 gets 32 MiB.
  return major == 9 && minor == 0 ? uint64_t(4096) * 8 * 1024 : uint64_t(4096) * 1024 * 2 + 16 * 1024 * 8;
}

WorkspaceSize cublas_workspace_size(int major, int minor, const std::optional<std::string>& config) {
  const uint64_t fallback = default_cublas_workspace_size(major, minor);
  if (!config) return {fallback, ""};
  // std::sregex_iterator over ":([0-9]+):([0-9]+)": leftmost matches, non-overlapping, each SIZE and COUNT
  // taken greedily (a longer digit run cannot be split by backtracking, since ':' must follow SIZE).
  const std::string& s = *config;
  uint64_t total = 0;
  bool matched = false;
  size_t i = 0;
  while (i < s.size()) {
    if (s[i] == ':') {
      const std::string size = digits_at(s, i + 1);
      const size_t colon = i + 1 + size.size();
      if (!size.empty() && colon < s.size() && s[colon] == ':') {
        const std::string count = digits_at(s, colon + 1);
        if (!count.empty()) {
          total += stoi_digits(size) * 1024 * stoi_digits(count);
          matched = true;
          i = colon + 1 + count.size();
          continue;
        }
      }
    }
    ++i;
  }
  if (!matched)
    return {fallback, "Could not parse CUBLAS_WORKSPACE_CONFIG, using default workspace size of " +
                          std::to_string(fallback) + " bytes."};
  return {total, ""};
}

WorkspaceSize cublaslt_workspace_size(const std::optional<std::string>& env) {
  const int64_t kDefaultKiB = 1024;  // "default size in KiB according to #73328"
  if (!env) return {uint64_t(kDefaultKiB) * 1024, ""};
  // std::stoi: leading whitespace, an optional sign, then digits up to the first other character.
  const std::string& s = *env;
  size_t i = 0;
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  bool negative = false;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
  const std::string digits = digits_at(s, i);
  const std::string keep = " using default workspace size of " + std::to_string(kDefaultKiB) + " KiB.";
  if (digits.empty()) return {uint64_t(kDefaultKiB) * 1024, "invalid CUBLASLT_WORKSPACE_SIZE," + keep};
  uint64_t v = 0;
  for (char c : digits) {
    v = v * 10 + uint64_t(c - '0');
    if (v > uint64_t(INT_MAX) + (negative ? 1 : 0))
      return {uint64_t(kDefaultKiB) * 1024, "CUBLASLT_WORKSPACE_SIZE out of range," + keep};
  }
  // size_t(int) * 1024, as PyTorch computes it (a negative value wraps around, as there).
  const int64_t kib = negative ? -int64_t(v) : int64_t(v);
  return {uint64_t(kib) * 1024, ""};
}

}  // namespace ds
