// Lesson 019's what-fits-where view: the request's keyword arguments and the result read from
// devicescope.fits.what_fits's JSON (view_state/fits_model.h).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "gui/view_state/fits_model.h"

namespace ds::gui {
namespace {

TEST(FitsModel, RequestIsTheCallsKeywordArguments) {
  FitsRequest q;
  q.model = "70b", q.strategy = "ddp", q.checkpoint = true, q.seq = 2048;
  const nlohmann::json j = nlohmann::json::parse(q.kwargs_json());
  EXPECT_EQ(j["model"], "70b");
  EXPECT_EQ(j["strategy"], "ddp");
  EXPECT_EQ(j["checkpoint"], true);
  EXPECT_EQ(j["seq"], 2048);
  EXPECT_EQ(j["batch"], 1);
}

TEST(FitsModel, ReadsDevicesCategoriesTableAndOutOfMemory) {
  const char* text = R"({"model": "1b", "strategy": "fsdp", "checkpoint": false, "world_size": 2,
    "capacity": 17179869184, "fits": false, "categories": ["parameter", "gradient", "activation"],
    "oom": {"message": "CUDA out of memory. Tried to allocate 418.00 MiB.", "phase": "forward", "module": null, "iteration": 2},
    "error": null,
    "devices": [{"device": "cuda:0", "simulated": true, "note": "", "peak_bytes": 100, "peak_phase": "backward",
                 "peak_step": 1, "peak_module": "Llama.layers.3", "by_category": {"parameter": 60, "activation": 40},
                 "table": [{"module": "Llama", "total": 70, "parameter": 60, "activation": 10}]},
                {"device": "cuda:1", "simulated": false, "note": "rank 0 simulated", "peak_bytes": 0,
                 "peak_phase": "", "peak_module": "", "by_category": {}, "table": []}]})";
  const FitsResult r = parse_fits_result(text);
  EXPECT_TRUE(r.error.empty()) << r.error;
  EXPECT_FALSE(r.fits);
  EXPECT_EQ(r.world_size, 2);
  EXPECT_EQ(r.oom_phase, "forward");
  EXPECT_EQ(r.oom_step, 2);
  EXPECT_EQ(r.devices[0].peak_step, 1);
  EXPECT_EQ(r.oom_module, "");  // null: no module
  EXPECT_NE(r.oom_message.find("Tried to allocate"), std::string::npos);
  ASSERT_EQ(r.devices.size(), 2u);
  const FitsDevice& d = r.devices[0];
  ASSERT_EQ(d.by_category.size(), 3u);  // every category, in the result's order, missing ones as 0
  EXPECT_EQ(d.by_category[0], std::make_pair(std::string("parameter"), uint64_t(60)));
  EXPECT_EQ(d.by_category[1].second, 0u);
  EXPECT_EQ(d.by_category[2].second, 40u);
  ASSERT_EQ(d.table.size(), 1u);
  EXPECT_EQ(d.table[0].bytes, (std::vector<uint64_t>{60, 0, 10}));
  EXPECT_FALSE(r.devices[1].simulated);
  EXPECT_EQ(r.devices[1].note, "rank 0 simulated");
}

TEST(FitsModel, AMalformedResultSaysSo) {
  const FitsResult r = parse_fits_result("{not json");
  EXPECT_NE(r.error.find("could not be read"), std::string::npos);
  EXPECT_TRUE(r.devices.empty());
}

}  // namespace
}  // namespace ds::gui
