#include "platform/platform_check.hpp"
#include "platform/units.hpp"

#include <gtest/gtest.h>

#include <filesystem>

namespace fs = std::filesystem;
using namespace tit::platform;

namespace {

std::string error_of(const std::string& xml)
{
  try {
    check_platform_text(xml, "t.xml");
  } catch (const PlatformError& e) {
    return e.what();
  }
  return "";
}

std::string platform(const std::string& body)
{
  return "<?xml version='1.0'?>\n<platform version=\"4.1\">\n" + body + "\n</platform>\n";
}

double value(Quantity kind, const char* text)
{
  auto p = parse_quantity(kind, text);
  EXPECT_EQ(p.error, "") << text;
  return p.value;
}

} // namespace

TEST(PlatformUnits, AcceptWhatSimGridAccepts)
{
  EXPECT_DOUBLE_EQ(value(Quantity::bandwidth, "1.25GBps"), 1.25e9);
  EXPECT_DOUBLE_EQ(value(Quantity::bandwidth, "1KiBps"), 1024);
  EXPECT_DOUBLE_EQ(value(Quantity::bandwidth, "8bps"), 1);
  EXPECT_DOUBLE_EQ(value(Quantity::bandwidth, "1Mibps"), 1024 * 1024 / 8.0);
  EXPECT_DOUBLE_EQ(value(Quantity::bandwidth, "100"), 100); // unit-less: SimGrid warns and takes the base unit
  EXPECT_DOUBLE_EQ(value(Quantity::speed, "2Gf"), 2e9);
  EXPECT_DOUBLE_EQ(value(Quantity::speed, "1megaflops"), 1e6);
  EXPECT_DOUBLE_EQ(value(Quantity::time, "35us"), 35e-6);
  EXPECT_DOUBLE_EQ(value(Quantity::time, "2h"), 7200);
  EXPECT_DOUBLE_EQ(value(Quantity::time, "0"), 0);
  EXPECT_DOUBLE_EQ(value(Quantity::time, " 1e-3s"), 1e-3); // strtod skips leading blanks, as in SimGrid
}

TEST(PlatformUnits, RefuseWhatSimGridRefusesOrCannotUse)
{
  EXPECT_EQ(parse_quantity(Quantity::bandwidth, "1KBps").error, "unknown unit 'KBps'"); // kBps or KiBps
  EXPECT_EQ(parse_quantity(Quantity::speed, "1Gflops").error, "unknown unit 'Gflops'"); // Gf or gigaflops
  EXPECT_EQ(parse_quantity(Quantity::time, "1 s").error, "unknown unit ' s'");
  EXPECT_EQ(parse_quantity(Quantity::time, "s").error, "no number");
  EXPECT_EQ(parse_quantity(Quantity::time, "1e-400s").error, "the number is out of range");
  EXPECT_EQ(parse_quantity(Quantity::bandwidth, "infBps").error, "not a finite number");
  EXPECT_EQ(parse_quantity(Quantity::bandwidth, "nan").error, "not a finite number");
}

TEST(PlatformCheck, EveryPlatformOfTheRepositoryPasses)
{
  fs::path root = fs::path(TIT_TEST_DATA_DIR).parent_path().parent_path();
  int checked = 0;
  for (auto const& dir : {root / "platforms", root / "tests" / "e2e" / "data", root / "tests" / "analysis" / "data"})
    for (auto const& entry : fs::directory_iterator(dir)) {
      auto name = entry.path().filename().string();
      if (entry.path().extension() != ".xml" || name.find("deploy") != std::string::npos || name == "broken.xml")
        continue;
      EXPECT_NO_THROW(check_platform_file(entry.path())) << entry.path();
      ++checked;
    }
  EXPECT_GE(checked, 13);
}

TEST(PlatformCheck, NamesFileLineElementAttributeAndWhatIsAccepted)
{
  auto msg = error_of(platform("<zone id=\"z\" routing=\"Full\">\n  <host id=\"a\" speed=\"0f\"/>\n</zone>"));
  EXPECT_EQ(msg.substr(0, msg.find(';')), "t.xml:4: error: <host id=\"a\"> speed=\"0f\": a speed of 0 stops SimGrid's "
                                          "engine");
  EXPECT_NE(msg.find("expected a number > 0 with a unit: f, kf"), std::string::npos) << msg;
}

TEST(PlatformCheck, ClusterAttributes)
{
  auto cluster = [](const std::string& attrs) {
    return error_of(platform("<cluster id=\"c\" prefix=\"n\" suffix=\"\" radical=\"0-3\" speed=\"1Gf\" bw=\"1GBps\" "
                             "lat=\"1us\" " +
                             attrs + "/>"));
  };
  EXPECT_EQ(cluster(""), "");
  EXPECT_EQ(cluster("limiter_link=\"0Bps\" bb_bw=\"0Bps\""), ""); // 0 means none, as in SimGrid
  EXPECT_NE(cluster("core=\"two\"").find("core=\"two\": not a whole number"), std::string::npos);
  EXPECT_NE(cluster("topology=\"TORUS\" topo_parameters=\"2,0\"").find("'0' is not a count"), std::string::npos);
  EXPECT_EQ(cluster("topology=\"FAT_TREE\" topo_parameters=\"2;2,2;1,2;1,2\""), "");
  EXPECT_EQ(cluster("topology=\"DRAGONFLY\" topo_parameters=\"1,1;2,1;2,1;1\""), "");
  EXPECT_NE(cluster("loopback_bw=\"-1Bps\"").find("loopback_bw=\"-1Bps\": a bandwidth cannot be negative"),
            std::string::npos);
  EXPECT_NE(error_of(platform("<cluster id=\"c\" prefix=\"n\" suffix=\"\" radical=\"0-4294967296\" speed=\"1f\" "
                              "bw=\"1Bps\" lat=\"0\"/>"))
                .find("radical"),
            std::string::npos);
}

TEST(PlatformCheck, StarZoneHostsNeedHostLinks)
{
  auto msg = error_of(platform("<zone id=\"z\" routing=\"Cluster\"><host id=\"a\" speed=\"1f\"/>"
                               "<link id=\"l\" bandwidth=\"1Bps\"/></zone>"));
  EXPECT_NE(msg.find("<host id=\"a\">: a host of a zone with routing=\"Cluster\" needs a <host_link>"),
            std::string::npos)
      << msg;
}

TEST(PlatformRoutes, FullZonesNeedARoutePerPairAndDirection)
{
  auto t = check_platform_text(platform(R"(<zone id="z" routing="Full">
    <host id="a" speed="1f"/><host id="b" speed="1f"/><host id="c" speed="1f"/>
    <link id="l" bandwidth="1Bps"/>
    <route src="a" dst="b"><link_ctn id="l"/></route>
    <route src="b" dst="c" symmetrical="NO"><link_ctn id="l"/></route>
    <route src="a" dst="c"/>
  </zone>)"),
                               "t.xml");
  EXPECT_EQ(t.find_unrouted({"a", "b", "a"}), std::nullopt); // two ranks on a: the loopback
  EXPECT_EQ(t.find_unrouted({"b", "c"}), std::make_pair(std::string("c"), std::string("b")));
  EXPECT_EQ(t.find_unrouted({"a", "c"}), std::make_pair(std::string("a"), std::string("c"))); // a route of no link
}

TEST(PlatformRoutes, ThroughGatewaysOfClusters)
{
  std::string cabinets;
  for (int c = 0; c < 3; ++c)
    cabinets += "<cluster id=\"cab" + std::to_string(c) + "\" prefix=\"n\" suffix=\"\" radical=\"" +
                std::to_string(2 * c) + "-" + std::to_string(2 * c + 1) +
                "\" speed=\"1Gf\" bw=\"1GBps\" lat=\"1us\" router_id=\"r" + std::to_string(c) + "\"/>\n";
  auto t = check_platform_text(platform("<zone id=\"top\" routing=\"Full\">" + cabinets + R"(
    <link id="up0" bandwidth="1GBps"/><link id="up1" bandwidth="1GBps"/>
    <zoneRoute src="cab0" dst="cab1" gw_src="r0" gw_dst="r1"><link_ctn id="up0"/><link_ctn id="up1"/></zoneRoute>
  </zone>)"),
                               "t.xml");
  EXPECT_EQ(t.find_unrouted({"n0", "n1", "n2", "n3"}), std::nullopt);
  EXPECT_EQ(t.find_unrouted({"n0", "n3", "n5"}), std::make_pair(std::string("n0"), std::string("n5")));
}

TEST(PlatformRoutes, FloydChainsRoutesAndNoneRoutesNothing)
{
  auto t = check_platform_text(platform(R"(<zone id="top" routing="Full">
   <zone id="f" routing="Floyd">
    <host id="a" speed="1f"/><host id="b" speed="1f"/><host id="c" speed="1f"/><router id="r"/>
    <link id="l" bandwidth="1Bps"/>
    <route src="a" dst="r"><link_ctn id="l"/></route><route src="r" dst="b"><link_ctn id="l"/></route>
   </zone>
   <zone id="n" routing="None"><host id="x" speed="1f"/><host id="y" speed="1f"/></zone>
  </zone>)"),
                               "t.xml");
  EXPECT_EQ(t.find_unrouted({"a", "b"}), std::nullopt);
  EXPECT_EQ(t.find_unrouted({"a", "c"}), std::make_pair(std::string("a"), std::string("c")));
  EXPECT_EQ(t.find_unrouted({"x", "y"}), std::make_pair(std::string("x"), std::string("y")));
}
