// Selectors of platform elements, and the points of a sweep.
#include "points.hpp"
#include "selector.hpp"

#include <gtest/gtest.h>
#include <set>
#include <stdexcept>

using namespace tit::sweep;

namespace {
const char* kPlatform = R"(<?xml version='1.0'?>
<platform version="4.1"><zone id="w" routing="Full">
  <host id="a" speed="1Gf"/><host id="b" speed="2Gf"/>
  <link id="backbone" bandwidth="1GBps" latency="1us"/><link id="l1" bandwidth="1GBps" latency="1us"/>
  <cluster id="c0" prefix="n" suffix="" radical="0-3" speed="1Gf" bw="1GBps" lat="1us"/>
</zone></platform>)";
} // namespace

TEST(SweepSelector, ParsesTypesConditionsAndIds)
{
  auto s = parse_selector("link[id=backbone]@bandwidth");
  EXPECT_EQ(s.element, "link");
  ASSERT_EQ(s.where.size(), 1u);
  EXPECT_EQ(s.where[0].first, "id");
  EXPECT_EQ(s.where[0].second, "backbone");
  EXPECT_EQ(s.attribute, "bandwidth");
  auto all = parse_selector("host@speed");
  EXPECT_EQ(all.element, "host");
  EXPECT_TRUE(all.where.empty());
  auto id = parse_selector("l1@latency");
  EXPECT_EQ(id.element, "");
  ASSERT_EQ(id.where.size(), 1u);
  EXPECT_EQ(id.where[0].second, "l1");
  EXPECT_THROW(parse_selector("link[id=x@bandwidth"), std::invalid_argument);
  EXPECT_THROW(parse_selector("link@"), std::invalid_argument);
  EXPECT_THROW(parse_selector("@speed"), std::invalid_argument);
}

TEST(SweepSelector, SelectsElements)
{
  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_string(kPlatform));
  EXPECT_EQ(select(doc, parse_selector("host@speed")).size(), 2u);
  EXPECT_EQ(select(doc, parse_selector("link[id=backbone]@bandwidth")).size(), 1u);
  EXPECT_EQ(select(doc, parse_selector("l1@latency")).size(), 1u);
  // <backbone> is an element type, but this platform has none: the name is then an id.
  auto backbone = select(doc, parse_selector("backbone@latency"));
  ASSERT_EQ(backbone.size(), 1u);
  EXPECT_STREQ(backbone[0].name(), "link");
  EXPECT_EQ(select(doc, parse_selector("cluster[id=c1]@bw")).size(), 0u);
  EXPECT_EQ(select(doc, parse_selector("link[bandwidth=1GBps][id=l1]@latency")).size(), 1u);
}

namespace {
Spec grid(std::vector<std::size_t> sizes)
{
  Spec s;
  s.file = "sweep.yaml";
  for (std::size_t k = 0; k < sizes.size(); ++k) {
    Param p;
    p.key = "cfg:k" + std::to_string(k);
    p.kind = ParamKind::cfg;
    for (std::size_t v = 0; v < sizes[k]; ++v)
      p.values.push_back(std::to_string(v));
    s.params.push_back(p);
  }
  return s;
}
} // namespace

TEST(SweepPoints, GridZipAndSample)
{
  auto s = grid({3, 3, 2});
  auto pts = expand(s);
  ASSERT_EQ(pts.size(), 18u);
  EXPECT_EQ(pts[1].values, (std::vector<std::string>{"0", "0", "1"}));  // the last key varies fastest
  EXPECT_EQ(pts[17].values, (std::vector<std::string>{"2", "2", "1"}));
  s.zip = {{0, 1}};
  pts = expand(s);
  ASSERT_EQ(pts.size(), 6u);
  for (auto const& p : pts)
    EXPECT_EQ(p.values[0], p.values[1]);
  s.zip.clear();
  s.sample_points = 7;
  s.sample_seed = 42;
  auto a = expand(s), b = expand(s);
  ASSERT_EQ(a.size(), 7u);
  std::set<std::vector<std::string>> distinct;
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].values, b[i].values);
    distinct.insert(a[i].values);
  }
  EXPECT_EQ(distinct.size(), 7u);
  s.sample_seed = 43;
  auto c = expand(s);
  bool differs = false;
  for (std::size_t i = 0; i < a.size(); ++i)
    differs = differs || a[i].values != c[i].values;
  EXPECT_TRUE(differs);
  s.sample_points = 19;
  EXPECT_THROW(expand(s), InputError);
}
