// Device: a small value type (type + optional index) with PyTorch's parsing, printing and equality.
// Mirrors c10/core/Device.h: `cuda` (no index) and `cuda:0` are different values.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace ds {

enum class DeviceType : int8_t { CPU = 0, CUDA = 1, Meta = 2 };

class Device {
 public:
  constexpr Device(DeviceType type = DeviceType::CPU, int index = -1) : type_(type), index_(int16_t(index)) {}
  // Validating constructors: raise RuntimeError with PyTorch's wording.
  static Device parse(std::string_view text);                  // torch.device("cuda:1")
  static Device from_type_and_index(std::string_view type, int64_t index);  // torch.device("cuda", 1)

  DeviceType type() const { return type_; }
  int index() const { return index_; }
  bool has_index() const { return index_ >= 0; }
  bool is_cpu() const { return type_ == DeviceType::CPU; }
  bool is_cuda() const { return type_ == DeviceType::CUDA; }
  std::string str() const;  // "cpu", "cuda", "cuda:1"

  bool operator==(const Device& o) const { return type_ == o.type_ && index_ == o.index_; }
  bool operator!=(const Device& o) const { return !(*this == o); }

 private:
  DeviceType type_;
  int16_t index_;
};

std::string device_type_name(DeviceType type);  // "cpu", "cuda", "meta"

}  // namespace ds

template <>
struct std::hash<ds::Device> {
  size_t operator()(const ds::Device& d) const noexcept {
    return std::hash<int>()((int(d.type()) << 16) ^ (d.index() & 0xffff));
  }
};
