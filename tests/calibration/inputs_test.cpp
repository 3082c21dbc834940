// Measurement files, platform files and CPU rates: parsing, errors (file, row, column), writing.
#include "contention.hpp"
#include "cpu.hpp"
#include "csv.hpp"
#include "p2p.hpp"
#include "platform.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

using namespace tit::calib;

namespace {

std::string error_of(const std::function<void()>& f)
{
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

const std::string kP2pHead = "# tit-calibrate p2p v1\n# hosts: a,b\nexperiment,size,iteration,seconds\n";

} // namespace

TEST(Csv, ReadsMetadataAndRows)
{
  auto t = CsvTable::parse(kP2pHead + "send,10,0,1e-6\n\n# late comment: x\nrecv,20,1,2.5e-6\n", "m.csv", "p2p");
  EXPECT_EQ(t.meta("hosts"), "a,b");
  EXPECT_EQ(t.meta("late comment"), "x");
  ASSERT_EQ(t.rows().size(), 2U);
  EXPECT_EQ(t.rows()[1].line, 7U);
  auto d = load_p2p(t);
  ASSERT_EQ(d.recv.size(), 1U);
  EXPECT_EQ(d.recv[0].x, 20);
  EXPECT_EQ(d.recv[0].y, 2.5e-6);
}

TEST(Csv, Errors)
{
  EXPECT_EQ(error_of([] { CsvTable::read("/nonexistent/m.csv", "p2p"); }),
            "/nonexistent/m.csv: error: cannot open the measurement file");
  EXPECT_EQ(error_of([] { CsvTable::parse("", "m.csv", "p2p"); }),
            "m.csv:1: error: empty file, expected the header line '# tit-calibrate p2p v1'");
  EXPECT_EQ(error_of([] { CsvTable::parse("# tit-calibrate cpu v1\n", "m.csv", "p2p"); }),
            "m.csv:1: error: expected the header line '# tit-calibrate p2p v1', got '# tit-calibrate cpu v1'");
  EXPECT_EQ(error_of([] { CsvTable::parse("# tit-calibrate p2p v1\n# only comments\n", "m.csv", "p2p"); }),
            "m.csv:2: error: no column header line");
  EXPECT_EQ(error_of([] { CsvTable::parse("# tit-calibrate p2p v1\na,,c\n", "m.csv", "p2p"); }),
            "m.csv:2:2: error: empty column name in the column header");
  EXPECT_EQ(error_of([] { CsvTable::parse(kP2pHead + "send,10,0\n", "m.csv", "p2p"); }),
            "m.csv:4: error: expected 4 fields (experiment,size,iteration,seconds), got 3\n  send,10,0");
  EXPECT_EQ(error_of([] { load_p2p(CsvTable::parse(kP2pHead + "send,10,0,1e-6\nsend,1x,0,1e-6\n", "m.csv", "p2p")); }),
            "m.csv:5:2: error: column 'size' expects a non-negative integer, got '1x'");
  EXPECT_EQ(error_of([] { load_p2p(CsvTable::parse(kP2pHead + "send,10,0,fast\n", "m.csv", "p2p")); }),
            "m.csv:4:4: error: column 'seconds' expects a number, got 'fast'");
  EXPECT_EQ(error_of([] { load_p2p(CsvTable::parse(kP2pHead + "send,10,0,-1e-6\n", "m.csv", "p2p")); }),
            "m.csv:4:4: error: column 'seconds' expects a number >= 0, got '-1e-6'");
  EXPECT_EQ(error_of([] { load_p2p(CsvTable::parse(kP2pHead + "test,8,0,1e-7\n", "m.csv", "p2p")); }),
            "m.csv:4:2: error: a test row has size 8, expected 0 (a polling call moves no data)");
  EXPECT_EQ(error_of([] { load_p2p(CsvTable::parse(kP2pHead + "ping,10,0,1e-6\n", "m.csv", "p2p")); }),
            "m.csv:4:1: error: unknown experiment 'ping' (expected send, recv, isend, wait, pingpong, copy, test or iprobe)");
  EXPECT_EQ(error_of([] {
              load_p2p(CsvTable::parse("# tit-calibrate p2p v1\nexperiment,bytes,iteration,seconds\n", "m.csv", "p2p"));
            }),
            "m.csv: error: no column 'size' (columns: experiment,bytes,iteration,seconds)");
}

TEST(Contention, RatioAndLimiter)
{
  std::string text = "# tit-calibrate contention v1\nexperiment,concurrency,pair,rank,size,iteration,seconds\n";
  // ping: 1e6 B in 1e-3 s -> 1e9 B/s; exchange: 1e6 B each way in 1.6e-3 s -> 1.25e9 B/s per node
  for (int i = 0; i < 3; ++i) {
    text += "ping,1,0,0,1000000," + std::to_string(i) + ",1e-3\n";
    text += "sendrecv,1,0,0,1000000," + std::to_string(i) + ",1.6e-3\n";
    text += "sendrecv,1,0,1,1000000," + std::to_string(i) + ",1.6e-3\n";
  }
  text += "ping,1,0,0,1000000,3,9e-3\n"; // an outlier: the median ignores it
  auto fit = fit_contention(load_contention(CsvTable::parse(text, "c.csv", "contention")));
  EXPECT_NEAR(fit.ratio, 1.25, 1e-12);
  EXPECT_NEAR(fit.limiter_ratio, 1.3125, 1e-12);
  EXPECT_TRUE(fit.warnings.empty());
}

TEST(Contention, RatioClampedAndErrors)
{
  std::string head = "# tit-calibrate contention v1\nexperiment,concurrency,pair,rank,size,iteration,seconds\n";
  auto fit = fit_contention(load_contention(
      CsvTable::parse(head + "ping,1,0,0,100,0,1e-3\nsendrecv,1,0,0,100,0,2e-3\n", "c.csv", "contention")));
  EXPECT_NEAR(fit.ratio, 1.0, 1e-12);
  fit = fit_contention(load_contention(
      CsvTable::parse(head + "ping,1,0,0,100,0,1e-3\nsendrecv,1,0,0,100,0,4e-3\n", "c.csv", "contention")));
  EXPECT_NEAR(fit.ratio, 0.5, 1e-12);
  EXPECT_NEAR(fit.limiter_ratio, 1.05, 1e-12);
  ASSERT_EQ(fit.warnings.size(), 1U);
  EXPECT_EQ(fit.warnings[0], "measured full-duplex ratio 0.500 is outside [1, 2]; 1 used");
  EXPECT_EQ(error_of([&] { load_contention(CsvTable::parse(head + "pong,1,0,0,100,0,1e-3\n", "c.csv", "contention")); }),
            "c.csv:3:1: error: unknown experiment 'pong' (expected ping or sendrecv)");
  EXPECT_EQ(error_of([&] { load_contention(CsvTable::parse(head + "ping,0,0,0,100,0,1e-3\n", "c.csv", "contention")); }),
            "c.csv:3:2: error: column 'concurrency' expects an integer >= 1, got '0'");
  EXPECT_EQ(error_of([&] { load_contention(CsvTable::parse(head + "ping,1,0,0,100,0,0\n", "c.csv", "contention")); }),
            "c.csv:3:7: error: column 'seconds' expects a time > 0, got '0'");
  EXPECT_EQ(error_of([&] {
              fit_contention(load_contention(CsvTable::parse(head + "ping,2,0,0,100,0,1e-3\n", "c.csv", "contention")));
            }),
            "error: the contention data needs ping and sendrecv measurements with concurrency 1");
}

TEST(Cpu, WeightedRatePerRankAveragedOverRepetitions)
{
  std::string text = "# tit-calibrate cpu v1\nrank,problem,iteration,burst,volume,seconds\n";
  // rank 0, rep 0: (1e9 + 3e9) / (1 + 1) = 2e9; rep 1: 4e9 / 1 = 4e9 -> 3e9. rank 1: 1e9 -> mean 2e9.
  text += "0,1024,0,0,1e9,1\n0,1024,0,1,3e9,1\n0,1024,1,0,4e9,1\n1,1024,0,0,1e9,1\n";
  text += "0,64,0,0,5e9,1\n1,64,0,0,7e9,1\n";
  auto bursts = load_cpu(CsvTable::parse(text, "cpu.csv", "cpu"));
  auto fit = fit_cpu(bursts, std::nullopt);
  ASSERT_EQ(fit.problems.size(), 2U);
  EXPECT_EQ(fit.chosen_problem, 1024); // the largest by default
  EXPECT_DOUBLE_EQ(fit.problems[1].rank_rate[0], 3e9);
  EXPECT_DOUBLE_EQ(fit.speed, 2e9);
  EXPECT_DOUBLE_EQ(fit_cpu(bursts, 64.0).speed, 6e9);
  EXPECT_EQ(error_of([&] { fit_cpu(bursts, 65.0); }), "error: problem size 65 was not measured");
  EXPECT_EQ(error_of([] { fit_cpu({}, std::nullopt); }), "error: no compute burst in the CPU data");
}

TEST(Cpu, MedianOverRepetitionsIgnoresOneSlowRepetition)
{
  // Three repetitions of rank 0 at 2e9, 2.2e9 and 1e9 (a repetition slowed by the system): the median 2e9,
  // where a mean would give 1.733e9.
  std::string text = "# tit-calibrate cpu v1\nrank,problem,iteration,burst,volume,seconds\n";
  text += "0,1,0,0,2e9,1\n0,1,1,0,2.2e9,1\n0,1,2,0,1e9,1\n";
  auto fit = fit_cpu(load_cpu(CsvTable::parse(text, "cpu.csv", "cpu")), std::nullopt);
  EXPECT_DOUBLE_EQ(fit.speed, 2e9);
  EXPECT_EQ(fit.problems[0].repetitions, 3);
}

TEST(Cpu, FromATraceWithTimings)
{
  // The tracer writes a trace list, the per-rank files and the timings side files.
  std::string dir = TIT_CALIB_TEST_DATA "/trace-timings";
  auto bursts = bursts_from_trace(dir + "/traces.txt", dir, 4096, 2);
  ASSERT_EQ(bursts.size(), 4U);
  EXPECT_EQ(bursts[2].volume, 3e9);
  EXPECT_DOUBLE_EQ(bursts[2].seconds, 1.5);
  auto fit = fit_cpu(bursts, std::nullopt);
  // rank 0: (2e9 + 1e9 + 3e9) / (1 + 0.5 + 1.5) = 2e9; rank 1: 4e9 / 2 = 2e9
  EXPECT_DOUBLE_EQ(fit.problems[0].rank_rate[0], 2e9);
  EXPECT_DOUBLE_EQ(fit.problems[0].rank_rate[1], 2e9);
  // The CSV written round-trips.
  std::ostringstream out;
  write_cpu_csv(out, bursts, dir, trace_compute_unit(dir + "/traces.txt"));
  auto table = CsvTable::parse(out.str(), "cpu.csv", "cpu");
  EXPECT_EQ(cpu_unit(table), "unknown"); // this trace's header does not say
  auto again = load_cpu(table);
  ASSERT_EQ(again.size(), 4U);
  EXPECT_EQ(again[3].rank, 1);
  EXPECT_EQ(again[3].problem, 4096);
  EXPECT_EQ(again[3].iteration, 2);
}

TEST(Cpu, TraceTimingErrors)
{
  std::string data = TIT_CALIB_TEST_DATA;
  EXPECT_EQ(error_of([&] { bursts_from_trace(data + "/bad-timings/traces.txt", data + "/bad-timings", 0, 0); }),
            data + "/bad-timings/rank-0.txt:4: error: no timing for this compute line in " + data +
                "/bad-timings/timings-0.csv\n  0 compute 1e9");
  EXPECT_EQ(error_of([&] { bursts_from_trace(data + "/trace-timings/traces.txt", data, 0, 0); }),
            data + "/timings-0.csv: error: cannot open the timings file");
}

namespace {

const char* kExisting = R"(<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <!-- hand-written, keep me -->
  <zone id="z" routing="Full">
    <host id="a" speed="1Gf"/>
    <host id="b" speed="2Gf"><prop id="smpi/os" value="0:1e-6:0"/></host>
    <cluster id="c" prefix="n" suffix="" radical="0-3" speed="1Gf" bw="125MBps" lat="50us"/>
    <link id="l" bandwidth="1GBps" latency="1us"/>
    <route src="a" dst="b"><link_ctn id="l"/></route>
  </zone>
  <config><prop id="network/model" value="SMPI"/><prop id="smpi/os" value="old"/></config>
</platform>
)";

/// This process' scratch folder, removed at its exit.
std::filesystem::path scratch_dir()
{
  struct Owner {
    std::filesystem::path dir =
        std::filesystem::temp_directory_path() / ("tit-calib-tests-" + std::to_string(::getpid()));
    Owner() { std::filesystem::create_directories(dir); }
    ~Owner()
    {
      std::error_code ec;
      std::filesystem::remove_all(dir, ec);
    }
  };
  static Owner owner;
  return owner.dir;
}

std::filesystem::path temp_file(const std::string& name, const std::string& text)
{
  auto p = scratch_dir() / ("tit-calib-test-" + name);
  std::ofstream(p) << text;
  return p;
}

} // namespace

TEST(Platform, UpdatesAnExistingFileKeepingEverythingElse)
{
  auto path = temp_file("existing.xml", kExisting);
  auto doc = load_platform(path);
  set_config(doc, {{"smpi/os", "0:2e-6:1e-9"}, {"smpi/bw-factor", "0:0.9"}});
  EXPECT_EQ(set_speed(doc, 3e9, "instructions", {"a", "c"}), 2);
  EXPECT_EQ(set_limiter(doc, 1.575, {}), 1);
  save_platform(doc, path);

  auto again = load_platform(path);
  auto platform = again.child("platform");
  // <config> moved first, its other props kept, ours updated or added.
  EXPECT_STREQ(platform.find_child([](auto n) { return n.type() == pugi::node_element; }).name(), "config");
  auto config = platform.child("config");
  EXPECT_STREQ(config.find_child_by_attribute("prop", "id", "network/model").attribute("value").value(), "SMPI");
  EXPECT_STREQ(config.find_child_by_attribute("prop", "id", "smpi/os").attribute("value").value(), "0:2e-6:1e-9");
  EXPECT_STREQ(config.find_child_by_attribute("prop", "id", "smpi/bw-factor").attribute("value").value(), "0:0.9");
  EXPECT_EQ(std::distance(config.children("prop").begin(), config.children("prop").end()), 3);
  auto zone = platform.child("zone");
  EXPECT_STREQ(zone.find_child_by_attribute("host", "id", "a").attribute("speed").value(), "3e+09f");
  EXPECT_STREQ(zone.find_child_by_attribute("host", "id", "b").attribute("speed").value(), "2Gf");
  EXPECT_STREQ(zone.find_child_by_attribute("host", "id", "b").child("prop").attribute("value").value(), "0:1e-6:0");
  EXPECT_STREQ(zone.child("cluster").attribute("speed").value(), "3e+09f");
  // The unit of the speed goes with it, as the first property; b's speed and properties are kept.
  EXPECT_STREQ(zone.find_child_by_attribute("host", "id", "a").child("prop").attribute("id").value(), "tit/speed-unit");
  EXPECT_STREQ(zone.find_child_by_attribute("host", "id", "a").child("prop").attribute("value").value(), "instructions");
  EXPECT_STREQ(zone.child("cluster").child("prop").attribute("value").value(), "instructions");
  EXPECT_FALSE(zone.find_child_by_attribute("host", "id", "b").find_child_by_attribute("prop", "id", "tit/speed-unit"));
  EXPECT_STREQ(zone.child("cluster").attribute("limiter_link").value(), "196875000Bps");
  EXPECT_STREQ(zone.child("route").child("link_ctn").attribute("id").value(), "l");
  std::ostringstream text;
  again.save(text);
  EXPECT_NE(text.str().find("hand-written, keep me"), std::string::npos);
  EXPECT_NE(text.str().find("<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">"), std::string::npos);
}

TEST(Platform, SpeedUnitReplacedOrRemoved)
{
  auto doc = generate_cluster(ClusterSpec{});
  set_speed(doc, 2e9, "flops", {});
  set_speed(doc, 3e9, "cpu-time x 1e+09", {});
  auto cluster = doc.child("platform").child("zone").child("cluster");
  ASSERT_TRUE(cluster);
  EXPECT_EQ(std::distance(cluster.children("prop").begin(), cluster.children("prop").end()), 1);
  EXPECT_STREQ(cluster.find_child_by_attribute("prop", "id", "tit/speed-unit").attribute("value").value(),
               "cpu-time x 1e+09");
  set_speed(doc, 4e9, "unknown", {}); // a speed of unknown unit: no stale unit left
  EXPECT_FALSE(cluster.find_child_by_attribute("prop", "id", "tit/speed-unit"));
}

TEST(Cpu, UnitFromTheTraceHeader)
{
  std::string dir = TIT_CALIB_TEST_DATA "/trace-timings-unit";
  EXPECT_EQ(trace_compute_unit(dir + "/traces.txt"), "cpu-time x 1e+09");
  auto bursts = bursts_from_trace(dir + "/traces.txt", dir, 0, 0);
  ASSERT_EQ(bursts.size(), 4U); // the header shifts the lines; the timings name the same ones
  std::ostringstream out;
  write_cpu_csv(out, bursts, dir, trace_compute_unit(dir + "/traces.txt"));
  auto table = CsvTable::parse(out.str(), "cpu.csv", "cpu");
  EXPECT_EQ(cpu_unit(table), "cpu-time x 1e+09");
  auto fit = fit_cpu(load_cpu(table), std::nullopt);
  EXPECT_DOUBLE_EQ(fit.speed, 2e9);
  // calib-cpu's files count flops (those written before it said so included).
  EXPECT_EQ(cpu_unit(CsvTable::parse("# tit-calibrate cpu v1\nrank,problem,iteration,burst,volume,seconds\n", "c.csv",
                                     "cpu")),
            "flops");
}

TEST(Platform, CreatesConfigFirstFromATemplate)
{
  auto doc = generate_cluster(ClusterSpec{});
  ASSERT_FALSE(doc.child("platform").child("config"));
  set_config(doc, {{"smpi/or", "0:1e-6:0"}});
  auto first = doc.child("platform").find_child([](auto n) { return n.type() == pugi::node_element; });
  EXPECT_STREQ(first.name(), "config");
  EXPECT_STREQ(first.child("prop").attribute("id").value(), "smpi/or");
}

TEST(Platform, Errors)
{
  EXPECT_EQ(error_of([] { load_platform("/nonexistent/p.xml"); }),
            "/nonexistent/p.xml: error: cannot open the platform file");
  auto bad = temp_file("bad.xml", "<platform>\n<zone>\n</platform>\n");
  EXPECT_EQ(error_of([&] { load_platform(bad); }),
            bad.string() + ":3: error: malformed XML: Start-end tags mismatch");
  auto other = temp_file("other.xml", "<foo/>\n");
  EXPECT_EQ(error_of([&] { load_platform(other); }), other.string() + ": error: no <platform> root element");
  auto weird = temp_file("weird.xml", "<platform><cluster id='c' bw='fast'/></platform>");
  auto doc = load_platform(weird);
  EXPECT_EQ(error_of([&] { set_limiter(doc, 1.5, {}); }),
            "error: cluster 'c': cannot read its bw 'fast' (expected bytes/s, e.g. 1.25e8 or 125MBps)");
  ClusterSpec s;
  s.node_bw = 0;
  EXPECT_EQ(error_of([&] { generate_cluster(s); }), "error: the node link bandwidth must be > 0, got 0");
  s = ClusterSpec{};
  s.cabinets = 0;
  EXPECT_EQ(error_of([&] { generate_cluster(s); }), "error: cabinets, nodes per cabinet and cores must be >= 1");
}

TEST(Platform, GeneratedCabinets)
{
  ClusterSpec s;
  s.cabinets = 3;
  s.nodes_per_cabinet = 4;
  auto doc = generate_cluster(s);
  auto zone = doc.child("platform").child("zone");
  EXPECT_EQ(std::distance(zone.children("cluster").begin(), zone.children("cluster").end()), 3);
  EXPECT_EQ(std::distance(zone.children("zoneRoute").begin(), zone.children("zoneRoute").end()), 3);
  auto c1 = zone.find_child_by_attribute("cluster", "id", "cabinet-1");
  EXPECT_STREQ(c1.attribute("radical").value(), "4-7");
  EXPECT_STREQ(c1.attribute("sharing_policy").value(), "SPLITDUPLEX");
  EXPECT_STREQ(c1.attribute("limiter_link").value(), "187500000Bps");
  auto names = node_names(s);
  ASSERT_EQ(names.size(), 12U);
  EXPECT_EQ(names[11], "node-11");
}

TEST(Cpu, TimingsFileErrors)
{
  auto dir = scratch_dir() / "tit-calib-timings";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "traces.txt") << "rank-0.txt\n";
  std::ofstream(dir / "rank-0.txt") << "0 init\n0 compute 1e9\n0 finalize\n";
  auto with_timings = [&](const std::string& text) {
    std::ofstream(dir / "timings-0.csv") << text;
    return error_of([&] { bursts_from_trace(dir / "traces.txt", dir, 0, 0); });
  };
  std::string t = (dir / "timings-0.csv").string();
  std::string r = (dir / "rank-0.txt").string();
  EXPECT_EQ(with_timings("line,action,start_s,end_s\n2,send,0,1\n"),
            r + ":2: error: " + t + " times action 'send' at this line, the trace has 'compute'\n  0 compute 1e9");
  EXPECT_EQ(with_timings("line,action,start_s,end_s\n2,compute,0,x\n"),
            t + ":2:4: error: column 'end_s' expects a number, got 'x'");
  EXPECT_EQ(with_timings("line,action,start_s,end_s\n2,compute,2,1\n"), t + ":2:4: error: end_s 1 is before start_s 2");
  EXPECT_EQ(with_timings("line,action,start_s,end_s\n0,compute,0,1\n"),
            t + ":2:1: error: column 'line' expects a line number >= 1, got '0'");
  EXPECT_EQ(with_timings("line,action,start_s,end_s\n1e90,compute,0,1\n"), // no cast out of range (fuzz)
            t + ":2:1: error: column 'line' expects a line number >= 1, got '1e90'");
  EXPECT_EQ(with_timings("line,action,start\n"), t + ": error: no column 'start_s' (columns: line,action,start)");
  EXPECT_EQ(with_timings("line,action,start_s,end_s\n2,compute,0,0.5\n"), "no error");
}
