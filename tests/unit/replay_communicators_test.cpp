// Communicator::local_rank: a world rank's rank in a communicator, or -1. MPI_COMM_WORLD answers without a
// search; other communicators by a sorted index built at creation (comm_create needs no engine).
#include "replay/communicators.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace {

using tit::replay::Communicators;

TEST(CommunicatorLocalRank, WorldIsTheIdentity)
{
  Communicators all(5);
  const auto& world = all.world();
  for (int r = 0; r < 5; ++r)
    EXPECT_EQ(world.local_rank(r), r);
  EXPECT_EQ(world.local_rank(5), -1);
  EXPECT_EQ(world.local_rank(-1), -1);
  EXPECT_EQ(world.local_rank(-333), -1); // MPI_ANY_SOURCE is no member
}

TEST(CommunicatorLocalRank, CreatedGroupInItsOwnOrder)
{
  Communicators all(6);
  const auto* c = all.create(all.world(), {4, 1, 3}, 0);
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->members, (std::vector<int>{4, 1, 3}));
  EXPECT_EQ(c->local_rank(4), 0);
  EXPECT_EQ(c->local_rank(1), 1);
  EXPECT_EQ(c->local_rank(3), 2);
  for (int outside : {0, 2, 5, 6, -1})
    EXPECT_EQ(c->local_rank(outside), -1) << outside;
}

TEST(CommunicatorLocalRank, PrefixOfTheWorldStopsAtItsSize)
{
  Communicators all(6);
  const auto* c = all.create(all.world(), {0, 1}, 0); // members[i] == i: answered without the index
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->local_rank(0), 0);
  EXPECT_EQ(c->local_rank(1), 1);
  EXPECT_EQ(c->local_rank(2), -1);
  EXPECT_EQ(c->local_rank(5), -1);
}

TEST(CommunicatorLocalRank, NestedCommunicatorMapsWorldRanks)
{
  Communicators all(8);
  const auto* parent = all.create(all.world(), {7, 5, 3, 1}, 0);
  ASSERT_NE(parent, nullptr);
  // Parent ranks 2 and 0 are world ranks 3 and 7.
  const auto* child = all.create(*parent, {2, 0}, 0);
  ASSERT_NE(child, nullptr);
  EXPECT_EQ(child->members, (std::vector<int>{3, 7}));
  EXPECT_EQ(child->local_rank(3), 0);
  EXPECT_EQ(child->local_rank(7), 1);
  EXPECT_EQ(child->local_rank(5), -1);
}

} // namespace
