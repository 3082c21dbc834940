// kind_name() and datatype_size().
#include "trace/action.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace tit::trace {
namespace {

TEST(TraceKindName, EveryKindHasADistinctName)
{
  std::set<std::string_view> names;
  auto last = static_cast<int>(Kind::NonBlockingCollective);
  for (int k = 0; k <= last; ++k) {
    std::string_view name = kind_name(static_cast<Kind>(k));
    EXPECT_FALSE(name.empty()) << "kind " << k;
    EXPECT_NE(name, "?") << "kind " << k;
    names.insert(name);
  }
  EXPECT_EQ(names.size(), static_cast<std::size_t>(last + 1));
}

TEST(TraceKindName, SpelledAsDialect2)
{
  EXPECT_EQ(kind_name(Kind::Init), "init");
  EXPECT_EQ(kind_name(Kind::CommSplit), "comm_split");
  EXPECT_EQ(kind_name(Kind::Isend), "isend");
  EXPECT_EQ(kind_name(Kind::Irecv), "irecv");
  EXPECT_EQ(kind_name(Kind::WaitAll), "waitall");
  EXPECT_EQ(kind_name(Kind::SendRecv), "sendRecv");
  EXPECT_EQ(kind_name(Kind::Barrier), "barrier");
  EXPECT_EQ(kind_name(Kind::AllReduce), "allreduce");
  EXPECT_EQ(kind_name(Kind::ReduceScatter), "reducescatter");
  EXPECT_EQ(kind_name(Kind::Exscan), "exscan");
  EXPECT_EQ(kind_name(Kind::Ssend), "Ssend");
  EXPECT_EQ(kind_name(Kind::Issend), "ISsend");
  EXPECT_EQ(kind_name(Kind::Startall), "Startall");
  EXPECT_EQ(kind_name(Kind::WaitAny), "waitAny");
  EXPECT_EQ(kind_name(Kind::TestSome), "testsome");
}

TEST(TraceDatatype, SizesOfSimGrid332Ids)
{
  // id -1 .. 59, x86_64
  const int expected[] = {0,                                   // -1 derived
                          8,  4,  1,  2,  8,  4,  1,  8,  1,  1,  // 0..9
                          2,  4,  8,  8,  16, 4,  1,  1,  2,  4,  // 10..19
                          8,  1,  2,  4,  8,  8,  16, 32, 8,  8,  // 20..29
                          8,  16, 16, 8,  8,  8,  16, 16, 4,  4,  // 30..39
                          8,  16, 8,  16, 16, 4,  2,  4,  8,  16, // 40..49
                          32, 1,  8,  16, 32, 0,  0,  1,  8,  8}; // 50..59
  for (int id = -1; id <= 59; ++id)
    EXPECT_EQ(datatype_size(id), expected[id + 1]) << "datatype id " << id;
}

TEST(TraceDatatype, UnknownIdsAreNegative)
{
  EXPECT_LT(datatype_size(60), 0);
  EXPECT_LT(datatype_size(-2), 0);
  EXPECT_LT(datatype_size(-333), 0);
  EXPECT_LT(datatype_size(1000000), 0);
}

} // namespace
} // namespace tit::trace
