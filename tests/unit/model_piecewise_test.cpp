#include "model/piecewise.hpp"

#include <gtest/gtest.h>

using tit::model::FactorTable;
using tit::model::ModelError;
using tit::model::PiecewiseLinear;

TEST(PiecewiseLinear, EmptyIsZero)
{
  PiecewiseLinear f;
  EXPECT_EQ(f(0), 0.0);
  EXPECT_EQ(f(1e9), 0.0);
}

TEST(PiecewiseLinear, SegmentOfLargestThresholdStrictlyBelowSize)
{
  auto f = PiecewiseLinear::parse("0:1e-6:1e-9;65536:2e-6:5e-10;1000:3e-6:0");
  ASSERT_EQ(f.segments().size(), 3U); // sorted
  EXPECT_EQ(f.segments()[1].threshold, 1000U);
  EXPECT_DOUBLE_EQ(f(0), 1e-6);            // at or below every threshold: first segment
  EXPECT_DOUBLE_EQ(f(1000), 1e-6 + 1e-9 * 1000); // 1000 is not strictly above 1000
  EXPECT_DOUBLE_EQ(f(1001), 3e-6);
  EXPECT_DOUBLE_EQ(f(65536), 3e-6);
  EXPECT_DOUBLE_EQ(f(65537), 2e-6 + 5e-10 * 65537);
}

TEST(PiecewiseLinear, FirstSegmentAppliesBelowItsThreshold)
{
  auto f = PiecewiseLinear::parse("100:5:1");
  EXPECT_DOUBLE_EQ(f(10), 15.0);
  EXPECT_DOUBLE_EQ(f(200), 205.0);
}

TEST(PiecewiseLinear, AcceptsSimGridDefaultAndUnits)
{
  EXPECT_TRUE(PiecewiseLinear::parse("0:0:0:0:0").is_zero());
  auto f = PiecewiseLinear::parse("0:2us:1ns");
  EXPECT_DOUBLE_EQ(f(1000), 2e-6 + 1e-9 * 1000);
  EXPECT_FALSE(f.is_zero());
}

TEST(PiecewiseLinear, RejectsMalformedStrings)
{
  EXPECT_THROW(PiecewiseLinear::parse(""), ModelError);
  EXPECT_THROW(PiecewiseLinear::parse("abc:1:2"), ModelError);
  EXPECT_THROW(PiecewiseLinear::parse("10"), ModelError);
  EXPECT_THROW(PiecewiseLinear::parse("10:1x:2"), ModelError);
  EXPECT_THROW(PiecewiseLinear::parse("-5:1:2"), ModelError);
  try {
    PiecewiseLinear::parse("0:1:1;64:oops");
    FAIL() << "expected ModelError";
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("chunk 2"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("oops"), std::string::npos) << e.what();
  }
}

TEST(FactorTable, SimGridDefaultBandwidthFactors)
{
  auto t = FactorTable::parse("65472:0.940694;15424:0.697866;9376:0.58729;5776:1.08739;3484:0.77493;"
                              "1426:0.608902;732:0.341987;257:0.338112;0:0.812084");
  EXPECT_DOUBLE_EQ(t(0), 1.0); // at or below every threshold
  EXPECT_DOUBLE_EQ(t(16), 0.812084);
  EXPECT_DOUBLE_EQ(t(257), 0.812084);
  EXPECT_DOUBLE_EQ(t(258), 0.338112);
  EXPECT_DOUBLE_EQ(t(1000016), 0.940694);
}

TEST(FactorTable, RejectsNonPositiveAndMalformed)
{
  EXPECT_THROW(FactorTable::parse("0:0"), ModelError);
  EXPECT_THROW(FactorTable::parse("0:1:2"), ModelError);
  EXPECT_THROW(FactorTable::parse("x:1"), ModelError);
}

TEST(ParseTimeValue, UnitsAndErrors)
{
  EXPECT_DOUBLE_EQ(tit::model::parse_time_value("1.5ms"), 1.5e-3);
  EXPECT_DOUBLE_EQ(tit::model::parse_time_value("5e-9"), 5e-9);
  EXPECT_THROW(tit::model::parse_time_value("5parsecs"), ModelError);
  EXPECT_THROW(tit::model::parse_time_value(""), ModelError);
}
