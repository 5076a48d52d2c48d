// JsonReader: accepts exactly what a conforming parser (nlohmann) accepts, unescapes strings the same,
// and tells truncated input from other syntax errors.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "trace/json_reader.h"

using ds::JsonReader;
using ds::JsonSyntaxError;

namespace {

bool reader_accepts(const std::string& text) {
  try {
    JsonReader r(text.data(), text.size());
    if (r.peek() == JsonReader::Type::End) return false;
    r.skip_value();
    r.finish();
    return true;
  } catch (const JsonSyntaxError&) {
    return false;
  }
}

std::string read_one_string(const std::string& text) {
  JsonReader r(text.data(), text.size());
  return std::string(r.read_string());
}

}  // namespace

TEST(JsonReader, AgreesWithNlohmannOnSamples) {
  const char* samples[] = {
      "{}", "[]", "[1,2,3]", "{\"a\":1}", "{\"a\":[true,false,null]}", " \n{ \"a\" : { \"b\" : [ ] } } \t",
      "-0", "0.5", "1e10", "1E+2", "-1.25e-3", "\"x\"", "[\"\\u00e9\\ud83d\\ude00\"]",
      // rejected
      "", "{", "[", "[1,]", "{\"a\":1,}", "{\"a\" 1}", "{a:1}", "01", "1.", ".5", "-", "1e", "+1", "[1 2]",
      "tru", "nul", "\"abc", "\"\\x\"", "\"\\u12\"", "\"\\ud800\"", "\"\\udc00x\"", "{}{}", "[1]]", "{\"a\":}",
      "\"tab\there\"", "[,1]", "{,}", "NaN", "[Infinity]", "{\"a\":1 \"b\":2}"};
  for (const char* s : samples)
    EXPECT_EQ(reader_accepts(s), nlohmann::json::accept(s)) << "for: " << s;
}

TEST(JsonReader, AgreesWithNlohmannOnMutations) {
  const std::string base =
      R"({"traceEvents":[{"name":"a\"b","ph":"X","ts":1.5,"dur":0.25,"args":{"x":[1,-2,3e4,null,true,false]}}],)"
      R"("metadata":{"k":"\u00e9\n","n":-0.0}})";
  ASSERT_TRUE(reader_accepts(base));
  const std::string alphabet = "{}[],:\"\\0123456789.-+eEtrufalsn x";
  uint64_t seed = 7;
  auto rnd = [&] { return (seed = seed * 6364136223846793005ull + 1442695040888963407ull) >> 33; };
  for (int i = 0; i < 5000; ++i) {
    std::string text = base;
    const int edits = 1 + int(rnd() % 3);
    for (int k = 0; k < edits; ++k) {
      const size_t at = rnd() % text.size();
      switch (rnd() % 3) {
        case 0: text[at] = alphabet[rnd() % alphabet.size()]; break;
        case 1: text.erase(at, 1); break;
        default: text.insert(at, 1, alphabet[rnd() % alphabet.size()]);
      }
    }
    ASSERT_EQ(reader_accepts(text), nlohmann::json::accept(text)) << "for: " << text;
  }
}

TEST(JsonReader, UnescapesLikeNlohmann) {
  for (const char* s : {R"("plain")", R"("q\"b\\s\/")", R"("\b\f\n\r\t")", R"("\u0041\u00e9\u20ac")",
                        R"("\ud83d\ude00 smile")", "\"raw \xC3\xA9\""})
    EXPECT_EQ(read_one_string(s), nlohmann::json::parse(s).get<std::string>()) << s;
}

TEST(JsonReader, ObjectsArraysAndNumbers) {
  const std::string text = R"({"a":18446744073709551615,"b":[-5,2.5],"c":"s","d":true})";
  JsonReader r(text.data(), text.size());
  r.begin_object();
  std::string_view key;
  ASSERT_TRUE(r.next_key(key));
  EXPECT_EQ(key, "a");
  EXPECT_EQ(JsonReader::to_u64(r.read_number_text()), 18446744073709551615ull);
  ASSERT_TRUE(r.next_key(key));
  EXPECT_EQ(key, "b");
  r.begin_array();
  ASSERT_TRUE(r.next_element());
  const std::string_view n = r.read_number_text();
  EXPECT_EQ(JsonReader::to_u64(n), std::nullopt);
  EXPECT_EQ(JsonReader::to_i64(n), -5);
  ASSERT_TRUE(r.next_element());
  EXPECT_EQ(JsonReader::to_double(r.read_number_text()), 2.5);
  EXPECT_FALSE(r.next_element());
  ASSERT_TRUE(r.next_key(key));
  EXPECT_EQ(r.peek(), JsonReader::Type::String);
  r.skip_value();
  ASSERT_TRUE(r.next_key(key));
  EXPECT_TRUE(r.read_bool());
  EXPECT_FALSE(r.next_key(key));
  r.finish();
}

TEST(JsonReader, TruncationIsReportedAsSuch) {
  const std::string text = R"({"a":[1,2.5e3,"x\u00e9",true,null,{"b":false}]})";
  for (size_t n = 0; n < text.size(); ++n) {
    const std::string cut = text.substr(0, n);
    try {
      JsonReader r(cut.data(), cut.size());
      r.skip_value();
      r.finish();
      ADD_FAILURE() << "accepted " << cut;
    } catch (const JsonSyntaxError& e) {
      EXPECT_TRUE(e.truncated) << cut << ": " << e.what();
      EXPECT_EQ(e.offset, n) << cut;
    }
  }
  try {
    const std::string bad = R"({"a":[1,2,x]})";
    JsonReader r(bad.data(), bad.size());
    r.skip_value();
    ADD_FAILURE();
  } catch (const JsonSyntaxError& e) {
    EXPECT_FALSE(e.truncated);
    EXPECT_EQ(e.offset, 10u);
    EXPECT_STREQ(e.what(), "unexpected character 'x'");
  }
}

TEST(JsonReader, DeepNestingIsAnErrorNotACrash) {
  const std::string deep(100000, '[');
  EXPECT_FALSE(reader_accepts(deep + std::string(100000, ']')));
}
