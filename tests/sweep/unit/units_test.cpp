// SimGrid's unit rules (xbt_parse_units) as tit-sweep checks sweep values.
#include "units.hpp"

#include <gtest/gtest.h>

using namespace tit::sweep;

TEST(SweepUnits, AttributesHaveTheirKind)
{
  EXPECT_EQ(unit_kind_of_attribute("speed"), UnitKind::speed);
  EXPECT_EQ(unit_kind_of_attribute("bb_bw"), UnitKind::bandwidth);
  EXPECT_EQ(unit_kind_of_attribute("bandwidth"), UnitKind::bandwidth);
  EXPECT_EQ(unit_kind_of_attribute("limiter_link"), UnitKind::bandwidth);
  EXPECT_EQ(unit_kind_of_attribute("loopback_lat"), UnitKind::time);
  EXPECT_EQ(unit_kind_of_attribute("core"), UnitKind::count);
  EXPECT_EQ(unit_kind_of_attribute("topo_parameters"), UnitKind::none);
}

TEST(SweepUnits, AcceptsWhatSimGridAccepts)
{
  for (auto v : {"10Gbps", "1.25GBps", "100MiBps", "1e9Bps", "8bps", "1kBps", "5", "0"})
    EXPECT_EQ(check_value(UnitKind::bandwidth, v), "") << v;
  for (auto v : {"1us", "2.5ms", "1e-6s", "3ps", "1w", "2d", "1h", "4m", "0"})
    EXPECT_EQ(check_value(UnitKind::time, v), "") << v;
  for (auto v : {"2Gf", "1e9f", "100Mf", "3gigaflops", "1flops", "1Gf,500Mf, 100Mf"})
    EXPECT_EQ(check_value(UnitKind::speed, v), "") << v;
  EXPECT_EQ(check_value(UnitKind::bandwidth, "1GBps;2GBps"), "");
  EXPECT_EQ(check_value(UnitKind::count, "4"), "");
  EXPECT_EQ(check_value(UnitKind::none, "anything"), "");
}

TEST(SweepUnits, RefusesWhatSimGridRefuses)
{
  EXPECT_NE(check_value(UnitKind::bandwidth, "10Gbs"), "");
  EXPECT_NE(check_value(UnitKind::bandwidth, "10GiBs"), "");
  EXPECT_NE(check_value(UnitKind::bandwidth, "1Gf"), "");
  EXPECT_NE(check_value(UnitKind::time, "1usec"), "");
  EXPECT_NE(check_value(UnitKind::time, "1Ms"), "");  // no prefixes on times
  EXPECT_NE(check_value(UnitKind::speed, "2GHz"), "");
  EXPECT_NE(check_value(UnitKind::speed, "1Kif"), "");  // speeds have no binary prefixes
  EXPECT_NE(check_value(UnitKind::speed, "1Gf,fast"), "");
  EXPECT_NE(check_value(UnitKind::time, "fast"), "");
  EXPECT_NE(check_value(UnitKind::count, "1.5"), "");
  EXPECT_NE(check_value(UnitKind::count, "0"), "");
  auto msg = check_value(UnitKind::bandwidth, "10Gbs");
  EXPECT_NE(msg.find("unknown unit 'Gbs' in bandwidth value"), std::string::npos) << msg;
}

TEST(SweepUnits, SplitsNumberAndUnit)
{
  auto q = split_quantity("2.25GBps");
  ASSERT_TRUE(q);
  EXPECT_DOUBLE_EQ(q->number, 2.25);
  EXPECT_EQ(q->unit, "GBps");
  EXPECT_FALSE(split_quantity("GBps"));
  EXPECT_FALSE(split_quantity(""));
}
