// The restricted unpickler: plain data in, everything that could run code or exhaust memory refused
// with the opcode and byte offset, truncation anywhere refused cleanly.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "snapshot/pickle_reader.h"
#include "snapshot_fixtures.h"

using namespace ds::snapshot;
using snapshot_test::fixture;

namespace {

std::string refusal(const std::string& bytes, const PickleLimits& limits = {}) {
  try {
    read_pickle_bytes(bytes, "mem", limits);
  } catch (const ds::Error& e) {
    EXPECT_EQ(e.kind(), ds::ErrorKind::ValueError) << e.what();
    return e.what();
  }
  return "";
}

std::string le(uint64_t v, int n) {
  std::string s;
  for (int i = 0; i < n; ++i) s.push_back(char((v >> (8 * i)) & 0xff));
  return s;
}

}  // namespace

TEST(PickleReader, ScalarsContainersAndMemoSharing) {
  // [-5, 300, 70000, -2**31, 2**64-1 (an address), True, False, None, 1.5, b"xy", "héllo", "héllo" (memo GET)]
  std::string p = "\x80\x04]\x94(";
  p += "J" + le(uint32_t(-5), 4);
  p += "M" + le(300, 2);
  p += "J" + le(70000, 4);
  p += "J" + le(0x80000000u, 4);
  p += "\x8a\x09" + le(~0ull, 8) + std::string(1, '\0');  // LONG1 of 9 bytes: 2**64-1
  p += "\x88\x89N";
  p += "G";
  p += std::string("\x3f\xf8\0\0\0\0\0\0", 8);  // 1.5 big-endian
  p += "C\x02xy";
  p += "\x8c\x06h\xc3\xa9llo\x94";
  p += "h\x01";  // BINGET 1: the same string value
  p += "e.";
  const PickleDocument doc = read_pickle_bytes(p, "mem");
  ASSERT_EQ(doc.kind(doc.root), PickleKind::List);
  const auto& items = doc.items(doc.root);
  ASSERT_EQ(items.size(), 12u);
  EXPECT_EQ(doc.as_int(items[0]), -5);
  EXPECT_EQ(doc.as_int(items[1]), 300);
  EXPECT_EQ(doc.as_int(items[2]), 70000);
  EXPECT_EQ(doc.as_int(items[3]), -2147483648LL);
  EXPECT_EQ(uint64_t(doc.as_int(items[4])), ~0ull);
  EXPECT_EQ(doc.kind(items[5]), PickleKind::Bool);
  EXPECT_TRUE(doc.as_bool(items[5]));
  EXPECT_FALSE(doc.as_bool(items[6]));
  EXPECT_EQ(doc.kind(items[7]), PickleKind::None);
  EXPECT_EQ(doc.as_float(items[8]), 1.5);
  EXPECT_EQ(doc.kind(items[9]), PickleKind::Bytes);
  EXPECT_EQ(doc.as_text(items[9]), "xy");
  EXPECT_EQ(doc.as_text(items[10]), "h\xc3\xa9llo");
  EXPECT_EQ(items[10], items[11]) << "a memoized value is shared, not copied";
}

TEST(PickleReader, PythonPicklesOfEveryProtocolReadTheSame) {
  for (const char* name : {"v2_small.pickle", "v2_proto2.pickle", "v2_proto0.pickle"}) {
    const PickleDocument doc = read_pickle_file(fixture(name));
    ASSERT_EQ(doc.kind(doc.root), PickleKind::Dict) << name;
    const ValueId* segs = doc.find(doc.root, "segments");
    ASSERT_TRUE(segs) << name;
    EXPECT_EQ(doc.items(*segs).size(), 3u) << name;
    const ValueId* settings = doc.find(doc.root, "allocator_settings");
    ASSERT_TRUE(settings) << name;
    const ValueId* gc = doc.find(*settings, "garbage_collection_threshold");
    ASSERT_TRUE(gc);
    EXPECT_EQ(doc.kind(*gc), PickleKind::Float) << name;
  }
}

TEST(PickleReader, EveryCodeBuildingOpcodeIsRefusedWithItsNameAndOffset) {
  const std::pair<std::string, const char*> ops[] = {
      {"c", "GLOBAL"},       {"\x93", "STACK_GLOBAL"}, {"R", "REDUCE"},     {"b", "BUILD"},
      {"i", "INST"},         {"o", "OBJ"},             {"\x81", "NEWOBJ"},  {"\x92", "NEWOBJ_EX"},
      {"P", "PERSID"},       {"Q", "BINPERSID"},       {"\x82", "EXT1"},    {"\x83", "EXT2"},
      {"\x84", "EXT4"},      {"\x8f", "EMPTY_SET"},    {"\x90", "ADDITEMS"}, {"\x91", "FROZENSET"},
      {"\x97", "NEXT_BUFFER"}, {"\x98", "READONLY_BUFFER"}};
  for (const auto& [op, name] : ops) {
    const std::string msg = refusal("\x80\x04N" + op + "abc\n.");
    EXPECT_NE(msg.find(std::string("opcode ") + name + " ("), std::string::npos) << msg;
    EXPECT_NE(msg.find("at byte 3"), std::string::npos) << msg;
  }
  EXPECT_NE(refusal("\x80\x04\xff.").find("unknown opcode 0xff at byte 2"), std::string::npos);
}

TEST(PickleReader, ReduceFixtureIsRefusedAndRunsNothing) {
  const std::string marker = fixture("MARKER_reduce_ran");
  std::filesystem::remove(marker);
  try {
    read_pickle_file(fixture("hostile_reduce.pickle"));
    FAIL() << "a pickle with a __reduce__ was read";
  } catch (const ds::Error& e) {
    EXPECT_NE(std::string(e.what()).find("STACK_GLOBAL"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(std::filesystem::exists(marker));
  // Control: Python's own unpickler does run it, so the fixture really is hostile.
  ASSERT_EQ(std::system(("/usr/bin/python3 -c \"import pickle; pickle.load(open('" + fixture("hostile_reduce.pickle") +
                         "', 'rb'))\"").c_str()), 0);
  EXPECT_TRUE(std::filesystem::exists(marker));
  std::filesystem::remove(marker);
}

TEST(PickleReader, TruncatedAtEveryByteIsRefusedCleanly) {
  for (const char* name : {"v2_small.pickle", "v2_proto2.pickle", "v1_list.pickle", "v2_proto0.pickle"}) {
    const std::string all = snapshot_test::read_all(fixture(name));
    ASSERT_NO_THROW(read_pickle_bytes(all, name));
    for (size_t n = 0; n < all.size(); ++n) {
      const std::string msg = refusal(all.substr(0, n));
      ASSERT_NE(msg, "") << name << " cut to " << n << " bytes was accepted";
      ASSERT_NE(msg.find("mem: not a plain-data pickle:"), std::string::npos) << msg;
    }
  }
}

TEST(PickleReader, TruncatedFileOnDiskIsRefused) {
  const std::string all = snapshot_test::read_all(fixture("v2_small.pickle"));
  const std::string path = fixture("cut.pickle");
  std::ofstream(path, std::ios::binary) << all.substr(0, all.size() / 2);
  try {
    read_pickle_file(path);
    FAIL();
  } catch (const ds::Error& e) {
    EXPECT_NE(std::string(e.what()).find("truncated"), std::string::npos) << e.what();
  }
}

TEST(PickleReader, DeepNestingIsRefusedShallowIsNot) {
  EXPECT_THROW(read_pickle_file(fixture("hostile_deep.pickle")), ds::Error);
  auto nested = [](int depth) { return "\x80\x02" + std::string(size_t(depth), ']') + std::string(size_t(depth - 1), 'a') + "."; };
  EXPECT_NO_THROW(read_pickle_bytes(nested(100), "mem"));
  EXPECT_NE(refusal(nested(600)).find("nested more than 512 deep"), std::string::npos);
  // MARK-built nesting (protocol 0/1) is bounded too.
  EXPECT_NE(refusal("\x80\x02" + std::string(5000, '(')).find("nested MARKs"), std::string::npos);
  // A list appended to itself (a cycle) neither loops nor leaks: it hits the depth limit.
  std::string cycle = std::string("\x80\x02]q\x00", 5);
  for (int i = 0; i < 600; ++i) cycle += std::string("h\0a", 3);
  EXPECT_NE(refusal(cycle + ".").find("deep"), std::string::npos);
}

TEST(PickleReader, HugeLengthsAndMemoIndexesAreRefusedWithoutAllocating) {
  EXPECT_NE(refusal("\x80\x04\x8d" + le(1ull << 60, 8) + "abc.").find("runs past the end of the file"), std::string::npos);
  EXPECT_NE(refusal("\x80\x04X" + le(0xffffffff, 4) + "abc.").find("runs past the end"), std::string::npos);
  EXPECT_NE(refusal("\x80\x04\x8b" + le(0x7fffffff, 4) + ".").find("runs past the end"), std::string::npos);
  EXPECT_NE(refusal("\x80\x04Nr" + le(0xfffffff0, 4) + ".").find("memo index"), std::string::npos);
  EXPECT_NE(refusal("\x80\x04h\x05.").find("never stored"), std::string::npos);
  EXPECT_NE(refusal("\x80\x04\x8a\x10" + std::string(15, '\x01') + "\x01.").find("wider than 64 bits"), std::string::npos);
  EXPECT_THROW(read_pickle_file(fixture("hostile_huge_len.pickle")), ds::Error);
  PickleLimits small;
  small.max_file_bytes = 100;
  EXPECT_NE(refusal(snapshot_test::read_all(fixture("v2_small.pickle")), small).find("more than the limit"), std::string::npos);
}

TEST(PickleReader, MalformedStacksAreRefused) {
  EXPECT_NE(refusal("\x80\x04" "a.").find("stack is empty"), std::string::npos);
  EXPECT_NE(refusal("\x80\x04NN.").find("STOP with 2 values"), std::string::npos);
  EXPECT_NE(refusal("\x80\x04]NNs.").find("SETITEM on a list"), std::string::npos);
  EXPECT_NE(refusal("\x80\x04" "e.").find("needs a MARK"), std::string::npos);
  EXPECT_NE(refusal("\x80\x09N.").find("protocol 9"), std::string::npos);
  EXPECT_NE(refusal("").find("empty"), std::string::npos);
}

TEST(PickleReader, StringsSpanningReadChunks) {
  // 3 MiB string: read(2) hands it over in 1 MiB chunks.
  const std::string payload(3u << 20, 'z');
  const std::string path = fixture("big_string.pickle");
  std::ofstream(path, std::ios::binary) << ("\x80\x04X" + le(payload.size(), 4) + payload + "N\x86.");
  ds::LoadProgress progress;
  const PickleDocument doc = read_pickle_file(path, &progress);
  ASSERT_EQ(doc.kind(doc.root), PickleKind::Tuple);
  EXPECT_EQ(doc.as_text(doc.items(doc.root)[0]), payload);
  EXPECT_EQ(progress.bytes_total.load(), payload.size() + 10);
  EXPECT_EQ(progress.bytes_read.load(), payload.size() + 10);
  EXPECT_EQ(progress.bytes_done.load(), payload.size() + 10);
}

TEST(PickleReader, CancelAndNonRegularFiles) {
  ds::LoadProgress progress;
  progress.cancel = true;
  EXPECT_THROW(read_pickle_file(fixture("v2_small.pickle"), &progress), ds::LoadCancelled);
  const std::string fifo = fixture("a_fifo");
  std::filesystem::remove(fifo);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  try {
    read_pickle_file(fifo);  // must not wait for a writer
    FAIL();
  } catch (const ds::Error& e) {
    EXPECT_NE(std::string(e.what()).find("not a regular file"), std::string::npos) << e.what();
  }
  EXPECT_THROW(read_pickle_file(snapshot_test::fixture_dir()), ds::Error);
  EXPECT_THROW(read_pickle_file(fixture("does_not_exist")), ds::Error);
}
