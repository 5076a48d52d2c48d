// Note [Allocator node reuse]: the node caches the caching allocator's containers allocate from.
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <unordered_map>

#include "alloc/node_cache.h"

namespace {

TEST(NodeCache, AGivenBackNodeIsTheNextOneTaken) {
  ds::NodeCache cache;
  void* a = cache.take(24);
  void* b = cache.take(24);
  EXPECT_NE(a, b);
  cache.give(a, 24);
  EXPECT_EQ(cache.take(24), a);  // reused, not a fresh allocation
  cache.give(a, 24);
  cache.give(b, 24);
}

TEST(NodeCache, OtherSizesGoToOperatorNew) {
  ds::NodeCache cache;
  void* node = cache.take(24);  // fixes the node size
  void* array = cache.take(64);
  cache.give(array, 64);  // freed, not kept: a later 24-byte take must not get it
  cache.give(node, 24);
  EXPECT_EQ(cache.take(24), node);
  cache.give(node, 24);
}

TEST(NodeCache, KeepsAtMostItsBoundOfIdleNodes) {
  ds::NodeCache cache;
  std::vector<void*> taken;
  for (size_t i = 0; i < ds::NodeCache::kMaxKept + 10; ++i) taken.push_back(cache.take(32));
  for (void* p : taken) cache.give(p, 32);  // the last 10 are freed (leak checkers would see them otherwise)
  std::set<void*> again;
  for (size_t i = 0; i < ds::NodeCache::kMaxKept; ++i) again.insert(cache.take(32));
  EXPECT_EQ(again.size(), ds::NodeCache::kMaxKept);
  for (void* p : again) cache.give(p, 32);
}

// Containers over CachedNodes hold the same contents, in the same order, as with std::allocator.
TEST(CachedNodes, SetAndMapBehaveAsWithTheStandardAllocator) {
  ds::NodeCache set_nodes, map_nodes;
  std::set<int, std::less<int>, ds::CachedNodes<int>> cached_set{std::less<int>{}, ds::CachedNodes<int>(&set_nodes)};
  std::set<int> plain_set;
  std::unordered_map<int, int, std::hash<int>, std::equal_to<int>, ds::CachedNodes<std::pair<const int, int>>>
      cached_map(0, std::hash<int>(), std::equal_to<int>(), ds::CachedNodes<std::pair<const int, int>>(&map_nodes));
  std::unordered_map<int, int> plain_map;
  std::mt19937 rng(7);
  for (int i = 0; i < 20000; ++i) {
    const int k = int(rng() % 500);
    if (rng() % 2) {
      cached_set.insert(k);
      plain_set.insert(k);
      cached_map[k] = i;
      plain_map[k] = i;
    } else {
      cached_set.erase(k);
      plain_set.erase(k);
      cached_map.erase(k);
      plain_map.erase(k);
    }
  }
  EXPECT_TRUE(std::equal(cached_set.begin(), cached_set.end(), plain_set.begin(), plain_set.end()));
  ASSERT_EQ(cached_map.size(), plain_map.size());
  for (const auto& [k, v] : plain_map) EXPECT_EQ(cached_map.at(k), v);
}

// A container moved into one built with a cache keeps that cache (propagate_on_container_move_assignment).
TEST(CachedNodes, MoveAssignmentTakesTheCache) {
  ds::NodeCache nodes;
  std::set<int, std::less<int>, ds::CachedNodes<int>> s;
  s = std::set<int, std::less<int>, ds::CachedNodes<int>>(std::less<int>(), ds::CachedNodes<int>(&nodes));
  EXPECT_EQ(s.get_allocator().cache, &nodes);
  s.insert(1);
  s.insert(2);
  s.erase(1);
  EXPECT_EQ(s.count(2), 1u);
}

}  // namespace
