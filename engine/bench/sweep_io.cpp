// CSV/JSON for sweep results, via nlohmann::json (Debian's nlohmann-json3-dev).
#include "bench/sweep_io.h"

#include <fstream>
#include <nlohmann/json.hpp>

#include "core/errors.h"

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

SweepResult load_sweep_json(const std::string& path) {
  std::ifstream in(path);
  check(bool(in), path + ": cannot open", ErrorKind::ValueError);
  const auto fail = [&](const std::string& why) {
    raise(ErrorKind::ValueError, path + ": not a DeviceScope bench file: " + why);
  };
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    fail(std::string("invalid JSON (") + e.what() + ")");
  }
  // Not j.value("format", ""): it throws a json type_error when "format" holds a non-string (found by fuzzing).
  if (!j.is_object() || !j.contains("format") || j["format"] != kFormat)
    fail("missing \"format\": \"devicescope-bench\"");
  SweepResult r;
  try {
    r.backend = j.at("backend").get<std::string>();
    r.link = j.at("link").get<std::string>();
    r.simulated = j.at("simulated").get<bool>();
    r.devicescope_version = j.value("devicescope_version", "");
    r.machine = j.value("machine", "");
    r.cancelled = j.value("cancelled", false);
    for (const auto& pj : j.at("points")) {
      SweepPoint p;
      p.route = pj.at("route").get<std::string>();
      p.memory = pj.at("memory").get<std::string>();
      p.mode = pj.at("mode").get<std::string>();
      p.bytes = pj.at("bytes").get<uint64_t>();
      p.samples_ns = pj.at("samples_ns").get<std::vector<double>>();
      p.median_ns = pj.at("median_ns").get<double>();
      p.p10_ns = pj.at("p10_ns").get<double>();
      p.p90_ns = pj.at("p90_ns").get<double>();
      p.host_ns = pj.value("host_ns", 0.0);
      p.gbps = pj.at("gbps").get<double>();
      p.link_gbps = pj.value("link_gbps", 0.0);
      p.raw_ns = pj.value("raw_ns", 0.0);
      p.vs_raw = pj.value("vs_raw", 0.0);
      p.simulated = pj.at("simulated").get<bool>();
      r.points.push_back(std::move(p));
    }
    for (const auto& cj : j.value("pinning", nlohmann::json::array())) {
      PinningCost c;
      c.bytes = cj.at("bytes").get<uint64_t>();
      c.pin_ns = cj.at("pin_ns").get<double>();
      c.pin_gbps = cj.at("pin_gbps").get<double>();
      c.measured = cj.at("measured").get<bool>();
      c.saving_ns = cj.at("saving_ns").get<double>();
      c.reuses_to_repay = cj.at("reuses_to_repay").get<double>();
      r.pinning.push_back(c);
    }
  } catch (const nlohmann::json::exception& e) {
    fail(std::string("unexpected content (") + e.what() + ")");
  }
  return r;
}

}  // namespace ds
