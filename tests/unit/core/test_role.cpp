// core/role.h: each role's three spellings come from one table, and each reads back to its role.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "core/role.h"

TEST(Role, EachRoleHasItsThreeSpellings) {
  EXPECT_STREQ(ds::role_name(ds::Role::OptimizerState), "optimizer-state");
  EXPECT_STREQ(ds::role_python_name(ds::Role::OptimizerState), "optimizer_state");
  EXPECT_STREQ(ds::role_label(ds::Role::OptimizerState), "optimizer state");
  EXPECT_STREQ(ds::role_label(ds::Role::PinnedStaging), "pinned (page-locked) host");
  std::set<std::string> names, python_names, labels;
  for (const ds::RoleNames& n : ds::kRoles) {
    names.insert(n.name);
    python_names.insert(n.python_name);
    labels.insert(n.label);
    EXPECT_EQ(ds::role_from_name(n.name), n.role) << n.name;
    EXPECT_EQ(ds::role_from_name(n.python_name), n.role) << n.python_name;
  }
  EXPECT_EQ(names.size(), std::size(ds::kRoles));  // no two roles share a spelling
  EXPECT_EQ(python_names.size(), std::size(ds::kRoles));
  EXPECT_EQ(labels.size(), std::size(ds::kRoles));
  EXPECT_EQ(ds::role_from_name("optimizer state"), std::nullopt);  // the legend's wording is not a name
  EXPECT_EQ(ds::role_from_name("weights"), std::nullopt);
  EXPECT_STREQ(ds::role_name(ds::Role(42)), "unknown");
}

// What devicescope record's allocator merge writes for a block no tensor claims (devicescope_recorder/allocator.py)
// is a role of its own, not an unknown name read as a tensor.
TEST(Role, TheRecordersAllocatorOnlyBlocks) {
  EXPECT_EQ(ds::role_from_name("allocator-only"), ds::Role::AllocatorOnly);
  EXPECT_EQ(ds::role_from_name("allocator_only"), ds::Role::AllocatorOnly);
  EXPECT_STREQ(ds::role_label(ds::Role::AllocatorOnly), "allocator only (no tensor)");
}
