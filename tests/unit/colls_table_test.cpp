// The table of collectives (colls/collectives.hpp): one row per blocking collective kind of the trace, each with
// its own selector slot, filled by every algorithm set, and with algorithms registered under its name.
#include "colls/collectives.hpp"
#include "colls/registry.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace tit::colls {
namespace {

TEST(CollectiveTable, OneRowPerCollectiveKind)
{
  std::set<trace::Kind> kinds;
  for (const Collective& c : kCollectives) {
    EXPECT_TRUE(trace::is_collective(c.kind)) << c.name;
    EXPECT_TRUE(kinds.insert(c.kind).second) << c.name << " has two rows";
    EXPECT_EQ(c.name, trace::kind_name(c.kind)) << "coll/<name> is the trace's name of the collective";
    EXPECT_EQ(collective_named(c.name), &c);
  }
  for (auto k = static_cast<int>(trace::Kind::Barrier); k <= static_cast<int>(trace::Kind::Exscan); ++k)
    EXPECT_NE(collective_of(static_cast<trace::Kind>(k)), nullptr)
        << trace::kind_name(static_cast<trace::Kind>(k)) << " has no row";
  EXPECT_EQ(collective_of(trace::Kind::Send), nullptr);
  EXPECT_EQ(collective_of(trace::Kind::NonBlockingCollective), nullptr);
  EXPECT_EQ(collective_named("send"), nullptr);
}

TEST(CollectiveTable, EverySelectorFillsEverySlot)
{
  for (const Collective& a : kCollectives)
    for (const Collective& b : kCollectives)
      EXPECT_TRUE(&a == &b || a.slot != b.slot) << a.name << " and " << b.name << " share a selector slot";
  for (const std::string& set : selector_names()) {
    Selector s = make_selector(set, {});
    for (const Collective& c : kCollectives)
      EXPECT_NE(s.*(c.slot), nullptr) << set << " has no algorithm for " << c.name;
  }
}

TEST(CollectiveTable, AlgorithmsAreRegisteredUnderARowName)
{
  std::set<std::string> with_algorithms;
  for (const AlgorithmInfo& a : algorithms()) {
    EXPECT_NE(collective_named(a.collective), nullptr) << a.name << " is registered for unknown '" << a.collective
                                                       << "'";
    with_algorithms.insert(a.collective);
  }
  for (const Collective& c : kCollectives)
    EXPECT_TRUE(with_algorithms.contains(std::string(c.name))) << c.name << " has no algorithm to choose";
}

TEST(CollectiveTable, ReductionsComputeAndFlows)
{
  for (trace::Kind k : {trace::Kind::Reduce, trace::Kind::AllReduce, trace::Kind::ReduceScatter, trace::Kind::Scan,
                        trace::Kind::Exscan})
    EXPECT_TRUE(collective_of(k)->reduction) << trace::kind_name(k);
  EXPECT_FALSE(collective_of(trace::Kind::Bcast)->reduction);
  EXPECT_EQ(collective_of(trace::Kind::ScatterV)->flow, Flow::OneToAll);
  EXPECT_EQ(collective_of(trace::Kind::GatherV)->flow, Flow::AllToOne);
}

} // namespace
} // namespace tit::colls
