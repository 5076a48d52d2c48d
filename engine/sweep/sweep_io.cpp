// CSV/JSON for sweep results, via nlohmann::json (Debian's nlohmann-json3-dev).
#include "sweep/sweep_io.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "core/errors.h"
#include "trace/recording_file.h"

namespace ds {
namespace {

constexpr const char* kFormat = "devicescope-bench";
constexpr int kFormatVersion = 1;

nlohmann::json point_json(const SweepPoint& p) {
  return {{"route", p.route},        {"memory", p.memory},   {"mode", p.mode},         {"bytes", p.bytes},
          {"samples_ns", p.samples_ns}, {"median_ns", p.median_ns}, {"p10_ns", p.p10_ns}, {"p90_ns", p.p90_ns},
          {"host_ns", p.host_ns},    {"gbps", p.gbps},       {"link_gbps", p.link_gbps}, {"raw_ns", p.raw_ns},
          {"vs_raw", p.vs_raw},      {"simulated", p.simulated}};
}

}  // namespace

void write_sweep_csv(const SweepResult& r, std::ostream& out) {
  out << "route,memory,mode,bytes,median_ns,p10_ns,p90_ns,host_ns,gbps,link_gbps,raw_ns,vs_raw,simulated,backend,link\n";
  for (const SweepPoint& p : r.points)
    out << p.route << ',' << p.memory << ',' << p.mode << ',' << p.bytes << ',' << p.median_ns << ',' << p.p10_ns
        << ',' << p.p90_ns << ',' << p.host_ns << ',' << p.gbps << ',' << p.link_gbps << ',' << p.raw_ns << ','
        << p.vs_raw << ',' << (p.simulated ? "true" : "false") << ',' << r.backend << ',' << r.link << '\n';
}

void write_sweep_json(const SweepResult& r, std::ostream& out) {
  nlohmann::json j;
  j["format"] = kFormat;
  j["version"] = kFormatVersion;
  j["backend"] = r.backend;
  j["link"] = r.link;
  j["simulated"] = r.simulated;
  j["devicescope_version"] = r.devicescope_version;
  j["machine"] = r.machine;
  j["cancelled"] = r.cancelled;
  j["points"] = nlohmann::json::array();
  for (const SweepPoint& p : r.points) j["points"].push_back(point_json(p));
  j["pinning"] = nlohmann::json::array();
  for (const PinningCost& c : r.pinning)
    j["pinning"].push_back({{"bytes", c.bytes}, {"pin_ns", c.pin_ns}, {"pin_gbps", c.pin_gbps},
                            {"measured", c.measured}, {"saving_ns", c.saving_ns},
                            {"reuses_to_repay", c.reuses_to_repay}});
  out << j.dump(1) << '\n';
}

namespace {

// Typed reads that name the offending field; nlohmann's get<uint64_t>() would turn -5 into 2^64-5.
class BenchFields {
 public:
  explicit BenchFields(const std::string& path) : path_(path) {}
  [[noreturn]] void fail(const std::string& why) const {
    raise(ErrorKind::ValueError, path_ + ": not a DeviceScope bench file: " + why);
  }
  const nlohmann::json& at(const nlohmann::json& j, const char* key, const std::string& where) const {
    if (!j.is_object()) fail(where + " is not an object");
    auto it = j.find(key);
    if (it == j.end()) fail(where + "." + key + " is missing");
    return *it;
  }
  uint64_t count(const nlohmann::json& j, const char* key, const std::string& where) const {
    const nlohmann::json& v = at(j, key, where);
    if (!v.is_number_unsigned()) fail(where + "." + key + " is " + v.dump() + ", not a non-negative integer");
    return v.get<uint64_t>();
  }
  // Durations and rates: finite and >= 0 (`optional`: a missing key reads as 0).
  double amount(const nlohmann::json& j, const char* key, const std::string& where, bool optional = false) const {
    if (optional && j.is_object() && !j.contains(key)) return 0.0;
    return amount_value(at(j, key, where), where + "." + key);
  }
  double amount_value(const nlohmann::json& v, const std::string& what) const {
    if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < 0)
      fail(what + " is " + v.dump() + ", not a finite non-negative number");
    return v.get<double>();
  }
  double signed_amount(const nlohmann::json& j, const char* key, const std::string& where) const {
    const nlohmann::json& v = at(j, key, where);
    if (!v.is_number() || !std::isfinite(v.get<double>())) fail(where + "." + key + " is " + v.dump() + ", not a finite number");
    return v.get<double>();
  }

 private:
  const std::string& path_;
};

}  // namespace

SweepResult load_sweep_json(const std::string& path, LoadProgress* progress) {
  const auto fail = [&](const std::string& why) {
    raise(ErrorKind::ValueError, path + ": not a DeviceScope bench file: " + why);
  };
  // A bench file is a JSON object: anything else is refused from its first bytes, unread.
  const FileBytes file = read_recording_file(
      path,
      [&](std::string_view head, size_t size) {
        if (size == 0) fail("the file is empty");
        const size_t i = head.find_first_not_of(" \t\r\n");
        if (i == std::string_view::npos && head.size() == size) fail("the file holds only white space");
        if (i == std::string_view::npos || head[i] != '{') fail("missing \"format\": \"devicescope-bench\"");
      },
      progress);
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(file.begin(), file.begin() + file.size);
  } catch (const nlohmann::json::exception& e) {
    fail(std::string("invalid JSON (") + e.what() + ")");
  }
  // Not j.value("format", ""): it throws a json type_error when "format" holds a non-string (found by fuzzing).
  if (!j.is_object() || !j.contains("format") || j["format"] != kFormat)
    fail("missing \"format\": \"devicescope-bench\"");
  const BenchFields f(path);
  SweepResult r;
  try {
    r.backend = j.at("backend").get<std::string>();
    r.link = j.at("link").get<std::string>();
    r.simulated = j.at("simulated").get<bool>();
    r.devicescope_version = j.value("devicescope_version", "");
    r.machine = j.value("machine", "");
    r.cancelled = j.value("cancelled", false);
    size_t index = 0;
    for (const auto& pj : j.at("points")) {
      const std::string where = "points[" + std::to_string(index++) + "]";
      SweepPoint p;
      p.route = f.at(pj, "route", where).get<std::string>();
      p.memory = pj.at("memory").get<std::string>();
      p.mode = pj.at("mode").get<std::string>();
      p.bytes = f.count(pj, "bytes", where);
      const nlohmann::json& samples = f.at(pj, "samples_ns", where);
      if (!samples.is_array()) fail(where + ".samples_ns is not an array");
      for (size_t k = 0; k < samples.size(); ++k)
        p.samples_ns.push_back(f.amount_value(samples[k], where + ".samples_ns[" + std::to_string(k) + "]"));
      p.median_ns = f.amount(pj, "median_ns", where);
      p.p10_ns = f.amount(pj, "p10_ns", where);
      p.p90_ns = f.amount(pj, "p90_ns", where);
      p.host_ns = f.amount(pj, "host_ns", where, true);
      p.gbps = f.amount(pj, "gbps", where);
      p.link_gbps = f.amount(pj, "link_gbps", where, true);
      p.raw_ns = f.amount(pj, "raw_ns", where, true);
      p.vs_raw = f.amount(pj, "vs_raw", where, true);
      p.simulated = pj.at("simulated").get<bool>();
      r.points.push_back(std::move(p));
    }
    index = 0;
    for (const auto& cj : j.value("pinning", nlohmann::json::array())) {
      const std::string where = "pinning[" + std::to_string(index++) + "]";
      PinningCost c;
      c.bytes = f.count(cj, "bytes", where);
      c.pin_ns = f.amount(cj, "pin_ns", where);
      c.pin_gbps = f.amount(cj, "pin_gbps", where);
      c.measured = cj.at("measured").get<bool>();
      c.saving_ns = f.signed_amount(cj, "saving_ns", where);  // pinning can cost more than it saves
      c.reuses_to_repay = f.amount(cj, "reuses_to_repay", where);
      r.pinning.push_back(c);
    }
  } catch (const nlohmann::json::exception& e) {
    fail(std::string("unexpected content (") + e.what() + ")");
  }
  if (progress) progress->bytes_done = file.size;
  return r;
}

}  // namespace ds
