// Module-tree rows for views: order, kinds, majority device and the straggler left behind by to().
#include <gtest/gtest.h>

#include "module/module_tree.h"
#include "module_test_util.h"

using namespace ds;
using ds::testing::cpu_zeros;
using ds::testing::sim_runtime;

TEST(ModuleTree, RowsAndStragglers) {
  auto rt = sim_runtime();
  ModulePtr model = Module::create("Net", "__main__");
  model->set_attr("fc", Value(make_linear(*rt, 3, 2)));
  model->set_attr("bn", Value(make_batchnorm1d(*rt, 2)));
  model->set_attr("mask", Value(cpu_zeros(*rt, {2})));  // plain attribute: stays on the CPU
  model->to(*rt, "cuda", "model");
  std::vector<std::string> rows;
  for (const ModuleEntry& e : module_tree(*model, "model"))
    rows.push_back(std::string(e.depth, ' ') + e.path + " " + e.type + " " + e.device + " " + e.dtype +
                   (e.straggler ? " STRAGGLER" : ""));
  EXPECT_EQ(rows, (std::vector<std::string>{
                      "model Net cuda:0 float32",
                      " model.mask Tensor cpu float32 STRAGGLER",
                      " model.fc Linear cuda:0 float32",
                      "  model.fc.weight Parameter cuda:0 float32",
                      "  model.fc.bias Parameter cuda:0 float32",
                      " model.bn BatchNorm1d cuda:0 float32",
                      "  model.bn.weight Parameter cuda:0 float32",
                      "  model.bn.bias Parameter cuda:0 float32",
                      "  model.bn.running_mean Tensor cuda:0 float32",
                      "  model.bn.running_var Tensor cuda:0 float32",
                      "  model.bn.num_batches_tracked Tensor cuda:0 int64",
                  }));
  const auto tree = module_tree(*model, "model");
  EXPECT_EQ(tree[3].kind, ObjectKind::Parameter);
  EXPECT_EQ(tree[3].shape, (Shape{2, 3}));
  EXPECT_EQ(tree[3].storage_id, model->child("fc")->param("weight")->storage()->id());
  EXPECT_EQ(tree[8].kind, ObjectKind::Buffer);
  EXPECT_EQ(tree[1].kind, ObjectKind::Tensor);
}

TEST(ModuleTree, SharedModuleListedOnce) {
  auto rt = sim_runtime();
  ModulePtr l = make_linear(*rt, 1, 1);
  const auto tree = module_tree(*make_sequential({l, l}), "s");
  ASSERT_EQ(tree.size(), 4u);  // s, s.0, s.0.weight, s.0.bias
  EXPECT_EQ(tree[1].path, "s.0");
}
