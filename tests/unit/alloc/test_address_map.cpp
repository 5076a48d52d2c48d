// AddressMap (Note [Live block map]) against std::unordered_map over long random sequences of inserts, finds
// and erases: block-like addresses (multiples of 512, clustered, so probe runs form and wrap around the
// table's end), growth from empty, and removal by backward shift inside long runs.
#include <gtest/gtest.h>

#include <random>
#include <unordered_map>
#include <vector>

#include "alloc/address_map.h"

using ds::AddressMap;

TEST(AddressMap, AgreesWithUnorderedMap) {
  for (uint32_t seed = 1; seed <= 8; ++seed) {
    std::mt19937_64 rng(seed);
    AddressMap<int> map;
    std::unordered_map<uintptr_t, int> ref;
    std::vector<uintptr_t> keys;
    const uintptr_t base = 0x7f0000000000ull + seed * 0x200000ull;
    for (int step = 0; step < 20000; ++step) {
      const int op = int(rng() % 10);
      if (op < 5 || keys.empty()) {
        const uintptr_t addr = base + 512 * (rng() % 4096);
        const int value = int(rng() % 1000) + 1;
        map.insert(addr, value);
        if (ref.emplace(addr, value).second) keys.push_back(addr);
        else ref[addr] = value;
      } else if (op < 8) {
        const size_t i = rng() % keys.size();
        const uintptr_t addr = keys[i];
        ASSERT_EQ(map.erase(addr), ref.at(addr));
        ref.erase(addr);
        keys[i] = keys.back();
        keys.pop_back();
        ASSERT_EQ(map.erase(addr), 0);  // gone: a second erase finds nothing
      } else {
        const uintptr_t addr = base + 512 * (rng() % 4096);
        const auto it = ref.find(addr);
        ASSERT_EQ(map.find(addr), it == ref.end() ? 0 : it->second);
      }
      ASSERT_EQ(map.size(), ref.size());
    }
    for (const auto& [addr, value] : ref) ASSERT_EQ(map.find(addr), value);
  }
}

TEST(AddressMap, EmptyMapFindsNothing) {
  AddressMap<int*> map;
  EXPECT_EQ(map.find(0x1000), nullptr);
  EXPECT_EQ(map.erase(0x1000), nullptr);
  EXPECT_EQ(map.size(), 0u);
}
