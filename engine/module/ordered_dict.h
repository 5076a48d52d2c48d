// OrderedDict: Python's insertion-ordered dict for the module registries (_parameters, _buffers, _modules).
// Assigning an existing key keeps its position; erasing and re-inserting moves it to the end, as in Python.
#pragma once

#include <cstddef>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ds {

template <typename V>
class OrderedDict {
 public:
  using Entry = std::pair<std::string, V>;

  bool contains(const std::string& key) const { return index_.count(key) != 0; }
  size_t size() const { return entries_.size(); }
  bool empty() const { return entries_.empty(); }

  // Pointer to the value, or null when the key is absent.
  V* find(const std::string& key) {
    auto it = index_.find(key);
    return it == index_.end() ? nullptr : &entries_[it->second].second;
  }
  const V* find(const std::string& key) const {
    auto it = index_.find(key);
    return it == index_.end() ? nullptr : &entries_[it->second].second;
  }

  // d[key] = value: replaces in place (position kept) or appends.
  void set(const std::string& key, V value) {
    auto it = index_.find(key);
    if (it != index_.end()) {
      entries_[it->second].second = std::move(value);
      return;
    }
    index_.emplace(key, entries_.size());
    entries_.emplace_back(key, std::move(value));
  }

  // del d[key]; returns false when absent. O(n): registries are small and deletions rare.
  bool erase(const std::string& key) {
    auto it = index_.find(key);
    if (it == index_.end()) return false;
    const size_t pos = it->second;
    index_.erase(it);
    entries_.erase(entries_.begin() + std::ptrdiff_t(pos));
    for (size_t i = pos; i < entries_.size(); ++i) index_[entries_[i].first] = i;
    return true;
  }

  void clear() {
    entries_.clear();
    index_.clear();
  }

  // Iteration in insertion order; values may be replaced through the iterator (keys must not change).
  auto begin() { return entries_.begin(); }
  auto end() { return entries_.end(); }
  auto begin() const { return entries_.begin(); }
  auto end() const { return entries_.end(); }
  const std::vector<Entry>& entries() const { return entries_; }

 private:
  std::vector<Entry> entries_;
  std::unordered_map<std::string, size_t> index_;
};

}  // namespace ds
