// The names graph of an opened file (session/owner_names): storage labels as people write sizes
// (issue 24 item 8: the snapshot session's own labels read "1024.00 KiB").
#include <gtest/gtest.h>

#include "session/owner_names.h"

namespace ds::gui {
namespace {

TEST(OwnerNames, StorageLabelsUseSizeText) {
  Snapshot pic;
  StorageInfo a;
  a.id = 1, a.nbytes = 1 << 20, a.role = Role::Parameter, a.owner = "train.py:50 optimizer_step";
  StorageInfo b;
  b.id = 2, b.nbytes = 1536, b.role = Role::Gradient, b.owner = "train.py:50 optimizer_step";
  pic.storages = {a, b};
  publish_owner_names(pic);
  std::vector<std::string> labels;
  for (const ObjectNode& n : pic.objects.nodes)
    if (n.storage_id) labels.push_back(n.label);
  ASSERT_EQ(labels.size(), 2u);
  EXPECT_NE(labels[0].find(" 1 MiB"), std::string::npos) << labels[0];
  EXPECT_NE(labels[1].find(" 1.5 KiB"), std::string::npos) << labels[1];
  for (const std::string& l : labels) EXPECT_EQ(l.find(".00 "), std::string::npos) << l;
}

}  // namespace
}  // namespace ds::gui
