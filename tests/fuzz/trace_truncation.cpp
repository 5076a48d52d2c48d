// Nothing lost, nothing half-read: every strict prefix of a real Chrome trace export (a file cut by a crash
// or a full disk) is refused with "not a DeviceScope trace", and every prefix of a transfers CSV is either
// refused or, when cut exactly at a line break, reads back as the complete rows before the cut. And no
// prefix of a good file fails the loaders' early check of a file's head (which would refuse a good file).
// Usage: trace_truncation TRACE.json TRANSFERS.csv   (a ctest test; exit 0 when all prefixes behave)
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "core/errors.h"
#include "trace/load_trace.h"

namespace {

std::string slurp(const char* path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

int check_json(const std::string& text) {
  const size_t transfers = ds::parse_chrome_trace(text.data(), text.size(), "full.json").transfers.size();
  int bad = 0;
  for (size_t n = 0; n < text.size(); ++n) {
    // Trailing white space after the closing brace is still a complete file.
    if (text.find_first_not_of(" \t\r\n", n) == std::string::npos) break;
    try {
      ds::check_chrome_trace_head(text.data(), n, "head.json");
    } catch (const ds::Error& e) {
      std::cerr << "the head check refused the first " << n << " bytes of a good trace: " << e.what() << "\n";
      ++bad;
    }
    try {
      ds::parse_chrome_trace(text.data(), n, "cut.json");
      std::cerr << "a trace cut after " << n << " of " << text.size() << " bytes was accepted\n";
      ++bad;
    } catch (const ds::Error& e) {
      if (std::string(e.what()).find("not a DeviceScope trace") == std::string::npos) {
        std::cerr << "cut after " << n << " bytes: unexpected message: " << e.what() << "\n";
        ++bad;
      }
    }
  }
  std::cout << "json: " << text.size() << " prefixes of a trace with " << transfers << " transfers checked\n";
  return bad;
}

int check_csv(const std::string& text) {
  const size_t rows = ds::parse_transfers_csv(text.data(), text.size(), "full.csv").size();
  int bad = 0, accepted = 0;
  for (size_t n = 0; n < text.size(); ++n) {
    try {
      ds::check_transfers_csv_head(text.data(), n, "head.csv");
    } catch (const ds::Error& e) {
      std::cerr << "the head check refused the first " << n << " bytes of a good CSV: " << e.what() << "\n";
      ++bad;
    }
    try {
      const size_t got = ds::parse_transfers_csv(text.data(), n, "cut.csv").size();
      ++accepted;
      // Only a cut right after a line break may read back, and then as exactly the rows before it.
      size_t complete_rows = 0;
      for (size_t i = 0; i < n; ++i) complete_rows += text[i] == '\n';
      if (n == 0 || text[n - 1] != '\n' || got + 1 != complete_rows) {
        std::cerr << "a CSV cut after " << n << " bytes read back as " << got << " rows\n";
        ++bad;
      }
    } catch (const ds::Error&) {
    }
  }
  std::cout << "csv: " << text.size() << " prefixes of " << rows << " rows checked, " << accepted
            << " accepted (cut at a line break)\n";
  return bad;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: trace_truncation TRACE.json TRANSFERS.csv\n";
    return 2;
  }
  try {
    const int bad = check_json(slurp(argv[1])) + check_csv(slurp(argv[2]));
    std::cout << (bad ? "FAILED: " : "ok: ") << bad << " problems\n";
    return bad ? 1 : 0;
  } catch (const std::exception& e) {
    std::cerr << "the complete files do not load: " << e.what() << "\n";
    return 1;
  }
}
