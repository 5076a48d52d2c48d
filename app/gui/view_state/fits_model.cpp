// FitsRequest / FitsResult <-> devicescope.fits.what_fits's JSON.
#include "gui/view_state/fits_model.h"

#include <nlohmann/json.hpp>

namespace ds::gui {

using nlohmann::json;

std::string FitsRequest::kwargs_json() const {
  return json{{"model", model}, {"strategy", strategy}, {"checkpoint", checkpoint}, {"seq", seq}, {"batch", batch}}.dump();
}

FitsResult parse_fits_result(const std::string& text) {
  FitsResult r;
  try {
    const json j = json::parse(text);
    r.model = j.value("model", "");
    r.strategy = j.value("strategy", "");
    r.checkpoint = j.value("checkpoint", false);
    r.world_size = j.value("world_size", 1);
    r.capacity = j.value("capacity", uint64_t(0));
    r.fits = j.contains("fits") && j["fits"].is_boolean() && j["fits"].get<bool>();
    r.categories = j.value("categories", std::vector<std::string>{});
    if (j.contains("oom") && j["oom"].is_object()) {
      const json& o = j["oom"];
      r.oom_message = o.value("message", "");
      r.oom_phase = o["phase"].is_string() ? o["phase"].get<std::string>() : "";
      r.oom_module = o["module"].is_string() ? o["module"].get<std::string>() : "";
      r.oom_step = o.contains("iteration") && o["iteration"].is_number_integer() ? o["iteration"].get<int>() : 0;
    }
    if (j.contains("error") && j["error"].is_object())
      r.error = j["error"].value("type", "") + ": " + j["error"].value("message", "");
    for (const json& d : j.value("devices", json::array())) {
      FitsDevice fd;
      fd.device = d.value("device", "");
      fd.peak = d.value("peak_bytes", uint64_t(0));
      fd.simulated = d.value("simulated", true);
      fd.note = d.value("note", "");
      fd.peak_phase = d.value("peak_phase", "");
      fd.peak_module = d.value("peak_module", "");
      fd.peak_step = d.value("peak_step", 0);
      const json by = d.value("by_category", json::object());
      for (const std::string& c : r.categories) fd.by_category.emplace_back(c, by.value(c, uint64_t(0)));
      for (const json& row : d.value("table", json::array())) {
        FitsDevice::Row fr{row.value("module", ""), row.value("total", uint64_t(0)), {}};
        for (const std::string& c : r.categories) fr.bytes.push_back(row.value(c, uint64_t(0)));
        fd.table.push_back(std::move(fr));
      }
      r.devices.push_back(std::move(fd));
    }
  } catch (const json::exception& e) {
    r.error = std::string("the estimate's result could not be read: ") + e.what();
  }
  return r;
}

}  // namespace ds::gui
