// diff_live: two maps of keys, then one row per (owner, place).
#include "snapshot/moment_diff.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace ds {

MomentDiff diff_live(const std::vector<LiveAllocation>& a, const std::vector<LiveAllocation>& b) {
  MomentDiff d;
  std::unordered_map<std::string, const LiveAllocation*> in_a, in_b;
  for (const LiveAllocation& x : a) in_a[x.key] = &x;
  for (const LiveAllocation& x : b) in_b[x.key] = &x;
  std::map<std::pair<std::string, std::string>, OwnerChange> rows;
  auto row = [&](const LiveAllocation& x) -> OwnerChange& {
    OwnerChange& r = rows[{x.owner, x.place}];
    r.owner = x.owner;
    r.place = x.place;
    return r;
  };
  std::map<std::string, PlaceChange> places;
  auto place = [&](const LiveAllocation& x) -> PlaceChange& {
    PlaceChange& p = places[x.place];
    p.place = x.place;
    return p;
  };
  for (const LiveAllocation& x : a) {
    OwnerChange& r = row(x);
    PlaceChange& p = place(x);
    r.bytes_a += x.bytes;
    p.live_a += x.bytes;
    d.total_a += x.bytes;
    if (!in_b.count(x.key)) r.freed += x.bytes, ++r.blocks_freed, p.freed += x.bytes, d.freed += x.bytes;
  }
  for (const LiveAllocation& x : b) {
    OwnerChange& r = row(x);
    PlaceChange& p = place(x);
    r.bytes_b += x.bytes;
    p.live_b += x.bytes;
    d.total_b += x.bytes;
    if (!in_a.count(x.key)) r.allocated += x.bytes, ++r.blocks_allocated, p.allocated += x.bytes, d.allocated += x.bytes;
  }
  for (auto& [key, r] : rows)
    if (r.allocated || r.freed) d.owners.push_back(r);
  for (auto& [name, p] : places) d.places.push_back(p);
  auto change = [](const OwnerChange& r) { return std::max(r.allocated, r.freed); };
  std::sort(d.owners.begin(), d.owners.end(), [&](const OwnerChange& x, const OwnerChange& y) {
    return change(x) != change(y) ? change(x) > change(y) : x.owner < y.owner;
  });
  return d;
}

void key_by_allocation_identity(std::vector<LiveAllocation>& live) {
  std::map<std::pair<std::string, std::string>, uint64_t> seen;  // (place, owner) -> allocations so far
  for (LiveAllocation& x : live) {
    const uint64_t order = seen[{x.place, x.owner}]++;
    x.key = x.place + '\0' + x.owner + '\0' + std::to_string(x.bytes) + '\0' + std::to_string(order);
  }
}

nlohmann::json moment_diff_json(const MomentDiff& d) {
  nlohmann::json owners = nlohmann::json::array(), moved = nlohmann::json::array(), places = nlohmann::json::array();
  for (const PlaceChange& p : d.places)
    places.push_back({{"place", p.place}, {"live_bytes_a", p.live_a}, {"live_bytes_b", p.live_b},
                      {"allocated_bytes", p.allocated}, {"freed_bytes", p.freed}});
  for (const OwnerChange& o : d.owners)
    owners.push_back({{"owner", o.owner}, {"place", o.place}, {"bytes_a", o.bytes_a}, {"bytes_b", o.bytes_b},
                      {"allocated", o.allocated}, {"freed", o.freed}, {"blocks_allocated", o.blocks_allocated},
                      {"blocks_freed", o.blocks_freed}});
  for (const RouteBytes& m : d.moved) moved.push_back({{"route", m.route}, {"owner", m.owner}, {"bytes", m.bytes}, {"copies", m.copies}});
  return {{"allocated_bytes", d.allocated}, {"freed_bytes", d.freed}, {"live_bytes_a", d.total_a},
          {"live_bytes_b", d.total_b}, {"owners", owners}, {"places", places}, {"moved", moved}};
}

}  // namespace ds
