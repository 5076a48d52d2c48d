// Device string grammar `type[:index]` exactly as c10::Device parses it, with its error messages.
#include "core/device.h"

#include <cctype>
#include <vector>

#include "core/errors.h"

namespace ds {
namespace {

// Every device type name PyTorch 2.x knows, in its order (c10/core/Device.cpp), so the
// "Expected one of ..." error lists them word for word. Only cpu, cuda and meta are usable here.
const std::vector<std::string_view>& known_type_names() {
  static const std::vector<std::string_view> names = {
      "cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve",
      "fpga", "maia", "xla", "lazy", "vulkan", "mps", "meta", "hpu", "mtia", "privateuseone"};
  return names;
}

DeviceType parse_type(std::string_view name) {
  if (name == "cpu") return DeviceType::CPU;
  if (name == "cuda") return DeviceType::CUDA;
  if (name == "meta") return DeviceType::Meta;
  std::string joined;
  for (auto n : known_type_names()) {
    if (!joined.empty()) joined += ", ";
    joined += n;
  }
  bool known = false;
  for (auto n : known_type_names()) known = known || n == name;
  if (known) raise(ErrorKind::RuntimeError, "DeviceScope does not model device type '" + std::string(name) + "'");
  raise(ErrorKind::RuntimeError,
        "Expected one of " + joined + " device type at start of device string: " + std::string(name));
}

}  // namespace

std::string device_type_name(DeviceType type) {
  switch (type) {
    case DeviceType::CPU: return "cpu";
    case DeviceType::CUDA: return "cuda";
    case DeviceType::Meta: return "meta";
  }
  return "unknown";
}

Device Device::parse(std::string_view text) {
  check(!text.empty(), "Device string must not be empty");
  enum State { Start, IndexStart, IndexRest, Bad } state = Start;
  std::string name, index;
  for (size_t i = 0; state != Bad && i < text.size(); ++i) {
    const unsigned char ch = static_cast<unsigned char>(text[i]);
    switch (state) {
      case Start:
        if (ch == ':') state = IndexStart;
        else if (std::isalpha(ch) || ch == '_') name.push_back(char(ch));
        else state = Bad;
        break;
      case IndexStart:
        if (std::isdigit(ch)) { index.push_back(char(ch)); state = IndexRest; }
        else state = Bad;
        break;
      case IndexRest:
        if (index[0] == '0' || !std::isdigit(ch)) state = Bad;  // no leading zeros
        else index.push_back(char(ch));
        break;
      case Bad: break;
    }
  }
  const bool bad = name.empty() || state == Bad || (state == IndexStart && index.empty());
  check(!bad, "Invalid device string: '" + std::string(text) + "'");
  int idx = -1;
  if (!index.empty()) {
    try {
      idx = std::stoi(index);
    } catch (const std::exception&) {
      raise(ErrorKind::RuntimeError,
            "Could not parse device index '" + index + "' in device string '" + std::string(text) + "'");
    }
    check(idx <= 32767, "Could not parse device index '" + index + "' in device string '" + std::string(text) + "'");
  }
  // Release builds of PyTorch accept `cpu:1` (the CPU index check is debug-only), so do we.
  const DeviceType type = parse_type(name);
  return Device(type, idx);
}

Device Device::from_type_and_index(std::string_view type_text, int64_t index) {
  check(index >= 0, "Device index must not be negative");
  Device base = parse(type_text);
  check(!base.has_index(), "type (string) must not include an index because index was passed explicitly: " +
                               std::string(type_text));
  return Device(base.type(), int(index));
}

std::string Device::str() const {
  std::string s = device_type_name(type_);
  if (has_index()) s += ":" + std::to_string(index_);
  return s;
}

}  // namespace ds
