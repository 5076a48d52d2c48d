// Device parsing, printing and equality against PyTorch's rules and messages (SEMANTICS §1).
#include <gtest/gtest.h>

#include <unordered_set>

#include "core/device.h"
#include "core/errors.h"

using ds::Device;

namespace {
std::string parse_error(const std::string& text) {
  try {
    Device::parse(text);
  } catch (const ds::Error& e) {
    EXPECT_EQ(e.kind(), ds::ErrorKind::RuntimeError);
    return e.what();
  }
  return "<no error>";
}
}  // namespace

TEST(Device, ParsesAndPrints) {
  EXPECT_EQ(Device::parse("cpu").str(), "cpu");
  EXPECT_EQ(Device::parse("cuda").str(), "cuda");
  EXPECT_EQ(Device::parse("cuda:0").str(), "cuda:0");
  EXPECT_EQ(Device::parse("cuda:12").index(), 12);
  EXPECT_FALSE(Device::parse("cuda").has_index());
  EXPECT_TRUE(Device::parse("cuda:1").is_cuda());
  EXPECT_EQ(Device::parse("cpu:0").str(), "cpu:0");
}

TEST(Device, IndexIsPartOfEquality) {
  EXPECT_NE(Device::parse("cuda"), Device::parse("cuda:0"));
  EXPECT_EQ(Device::parse("cuda:1"), Device(ds::DeviceType::CUDA, 1));
  std::unordered_set<Device> set{Device::parse("cuda"), Device::parse("cuda:0"), Device::parse("cuda:0")};
  EXPECT_EQ(set.size(), 2u);
}

TEST(Device, InvalidStringsUsePyTorchWording) {
  for (const char* bad : {"cuda:x", "cuda:-1", "cuda:01", "cuda: 0", "cuda:0:1", "cuda:"})
    EXPECT_EQ(parse_error(bad), std::string("Invalid device string: '") + bad + "'") << bad;
  EXPECT_EQ(parse_error(""), "Device string must not be empty");
}

TEST(Device, UnknownTypeListsEveryKnownType) {
  const std::string msg = parse_error("gpu");
  EXPECT_EQ(msg.rfind("Expected one of cpu, cuda, ", 0), 0u) << msg;
  EXPECT_NE(msg.find(" device type at start of device string: gpu"), std::string::npos) << msg;
  EXPECT_NE(parse_error("CUDA").find("device string: CUDA"), std::string::npos);  // case-sensitive
}

TEST(Device, TypeAndIndexForm) {
  EXPECT_EQ(Device::from_type_and_index("cuda", 1).str(), "cuda:1");
  try {
    Device::from_type_and_index("cuda", -2);
    FAIL() << "negative index accepted";
  } catch (const ds::Error& e) {
    EXPECT_STREQ(e.what(), "Device index must not be negative");
  }
}
