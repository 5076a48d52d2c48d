// The names graph of real programs (issue 24 item 2): containers fold into one box that sums up what they
// hold, the largest fold first until the graph fits at a readable zoom, then names beyond what fits go
// into "+N more names"; a search keeps the way to what it finds open.
#include <gtest/gtest.h>

#include "gui/view_state/graph_fold.h"

namespace ds::gui {
namespace {

float fixed_width(const std::string& s) { return float(s.size()) * 7.0f; }

ObjectNode node(uint64_t id, ObjectKind kind, const std::string& label, const std::string& device = "", uint64_t storage = 0) {
  ObjectNode n;
  n.id = id, n.kind = kind, n.label = label, n.device = device, n.storage_id = storage;
  return n;
}

// model = Sequential(Linear, ReLU, Linear) on cuda:0 (4 parameters of 1 KiB), opt = Adam over them with
// two state tensors per parameter, x a tensor of its own.
struct Program {
  ObjectGraph g;
  std::vector<StorageInfo> storages;
};

Program training_program() {
  Program p;
  ObjectGraph& g = p.g;
  g.nodes = {node(1, ObjectKind::Name, "model"), node(2, ObjectKind::Name, "opt"), node(3, ObjectKind::Name, "x"),
             node(10, ObjectKind::Module, "Sequential()"), node(11, ObjectKind::Module, "Linear(in_features=16, out_features=16)"),
             node(12, ObjectKind::Module, "ReLU()"), node(13, ObjectKind::Module, "Linear(in_features=16, out_features=16)"),
             node(20, ObjectKind::Optimizer, "Adam (4 params, 4 with state)"), node(21, ObjectKind::Dict, "dict (4 items)"),
             node(30, ObjectKind::Tensor, "tensor cuda:0 [8, 16] float32", "cuda:0", 300)};
  g.edges = {{1, 10, "model"}, {2, 20, "opt"}, {3, 30, "x"}, {10, 11, "0"}, {10, 12, "1"}, {10, 13, "2"}, {20, 21, "state"}};
  uint64_t id = 100, storage = 1000;
  for (uint64_t lin : {11, 13})
    for (const char* what : {"weight", "bias"}) {
      g.nodes.push_back(node(id, ObjectKind::Parameter, "Parameter cuda:0 [16, 16] float32", "cuda:0", storage));
      g.edges.push_back({lin, id, what});
      g.edges.push_back({20, id, "params[" + std::to_string(id - 100) + "]"});
      StorageInfo s;
      s.id = storage, s.place = Place::cuda(0), s.nbytes = 1024;
      p.storages.push_back(s);
      const uint64_t index = id - 100;
      for (const char* key : {"exp_avg", "exp_avg_sq"}) {
        const uint64_t sid = 50 + storage;
        g.nodes.push_back(node(id + 500, ObjectKind::Tensor, "tensor cuda:0 [16, 16] float32", "cuda:0", sid + (key[7] ? 1000 : 0)));
        g.edges.push_back({21, id + 500, std::string(key) + "[" + std::to_string(index) + "]"});
        StorageInfo st;
        st.id = sid + (key[7] ? 1000 : 0), st.place = Place::cuda(0), st.nbytes = 1024;
        p.storages.push_back(st);
        id += 1000;
      }
      id -= 2000;
      ++id, ++storage;
    }
  StorageInfo sx;
  sx.id = 300, sx.place = Place::cuda(0), sx.nbytes = 512;
  p.storages.push_back(sx);
  return p;
}

GraphLayout lay(const ObjectGraph& g, const std::vector<StorageInfo>& s) { return layout_graph(g, fixed_width, {}, &s); }

TEST(GraphFold, AFoldedModuleSumsUpWhatItHolds) {
  const Program p = training_program();
  const ObjectGraph f = fold_graph(p.g, {10}, &p.storages);
  const auto it = std::find_if(f.nodes.begin(), f.nodes.end(), [](const ObjectNode& n) { return n.id == 10; });
  ASSERT_NE(it, f.nodes.end());
  EXPECT_EQ(it->label, "\xe2\x96\xb8 Sequential\n4 tensors, 4 KiB");
  EXPECT_EQ(it->device, "cuda:0");
  // Its references are gone; the parameters are still drawn, through the optimizer.
  for (const ObjectEdge& e : f.edges) EXPECT_NE(e.from, 10u);
  const GraphLayout whole = lay(p.g, p.storages), folded = lay(f, p.storages);
  EXPECT_LT(folded.boxes.size(), whole.boxes.size());  // the three Linear/ReLU boxes
  EXPECT_EQ(whole.boxes.size() - folded.boxes.size(), 3u);
}

TEST(GraphFold, FoldsTheLargestFirstUntilItFits) {
  const Program p = training_program();
  auto layout_of = [&](const ObjectGraph& g) { return lay(g, p.storages); };
  const GraphLayout whole = lay(p.g, p.storages);
  // Room for everything: nothing folds.
  FoldPlan roomy = plan_folds(p.g, &p.storages, {}, {}, layout_of, [&](const GraphLayout& l) { return l.height <= whole.height; });
  EXPECT_TRUE(roomy.fits);
  EXPECT_TRUE(roomy.folded.empty());
  // Less room: the optimizer (it alone reaches the 8 state tensors and their storages) folds first.
  FoldPlan tight = plan_folds(p.g, &p.storages, {}, {}, layout_of, [&](const GraphLayout& l) { return l.height < whole.height * 0.8f; });
  EXPECT_TRUE(tight.fits);
  EXPECT_TRUE(tight.folded.count(20) || tight.folded.count(21));
  EXPECT_FALSE(tight.folded.count(10));
  // What the user opened stays open; what the user folded stays folded.
  FoldPlan kept = plan_folds(p.g, &p.storages, {10}, {20, 21}, layout_of, [&](const GraphLayout& l) { return l.height < whole.height * 0.8f; });
  EXPECT_FALSE(kept.folded.count(20));
  EXPECT_FALSE(kept.folded.count(21));
  EXPECT_TRUE(kept.folded.count(10));
}

TEST(GraphFold, BeyondFoldingFewerNamesAreShown) {
  ObjectGraph g;
  std::vector<StorageInfo> none;
  for (uint64_t i = 1; i <= 40; ++i) {
    g.nodes.push_back(node(i, ObjectKind::Name, "v" + std::to_string(i)));
    g.nodes.push_back(node(100 + i, ObjectKind::Other, "1.5"));
    g.edges.push_back({i, 100 + i, "v"});
  }
  const GraphLayout whole = lay(g, none);
  FoldPlan p = plan_folds(g, &none, {}, {}, [&](const ObjectGraph& x) { return lay(x, none); },
                          [&](const GraphLayout& l) { return l.height <= whole.height / 2; });
  EXPECT_TRUE(p.fits);
  ASSERT_LT(p.names_kept, 40u);
  EXPECT_GE(p.names_kept, 15u);  // about half the names, and the "+N more names" line
  size_t names = 0;
  bool more = false;
  for (const ObjectNode& n : p.graph.nodes) {
    names += n.kind == ObjectKind::Name;
    more = more || n.label == "+" + std::to_string(40 - p.names_kept) + " more names";
  }
  EXPECT_EQ(names, p.names_kept + 1);
  EXPECT_TRUE(more);
}

TEST(GraphFold, ASearchKeepsTheWayToWhatItFindsOpen) {
  const Program p = training_program();
  // The state tensor exp_avg_sq[0]: found through the optimizer and its state dict.
  std::unordered_set<uint64_t> edge_targets;
  for (const ObjectEdge& e : p.g.edges)
    if (e.label == "exp_avg_sq[0]") edge_targets.insert(e.to);
  const auto open = paths_to(p.g, [&](size_t i) { return edge_targets.count(p.g.nodes[i].id) > 0; });
  EXPECT_TRUE(open.count(2));   // the name opt
  EXPECT_TRUE(open.count(20));  // Adam
  EXPECT_TRUE(open.count(21));  // its state
  EXPECT_FALSE(open.count(10));  // not the model
}

}  // namespace
}  // namespace ds::gui
