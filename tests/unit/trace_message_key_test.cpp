// The one rule that says which request a wait or test line names (trace::named_request), as the replay and
// tit-trace proxy's checker apply it.
#include "trace/message_key.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace {

using tit::trace::MessageKey;

struct Req {
  MessageKey key;
  bool collective = false;
};

std::size_t named(const std::vector<Req>& reqs, MessageKey key)
{
  return tit::trace::named_request(
      reqs, key, [](const Req& r) -> const MessageKey& { return r.key; }, [](const Req& r) { return r.collective; });
}

TEST(MessageKey, TheFirstRequestOfTheNamedKeyInTheCallersOrder)
{
  std::vector<Req> reqs = {{{0, 1, 0, 5}}, {{0, 1, 0, 7}}, {{0, 1, 0, 5}}};
  EXPECT_EQ(named(reqs, {0, 1, 0, 5}), 0u);
  EXPECT_EQ(named(reqs, {0, 1, 0, 7}), 1u);
  EXPECT_EQ(named(reqs, {0, 2, 0, 5}), 3u); // none: the line waits for nothing
}

TEST(MessageKey, ACommunicatorIsPartOfTheKey)
{
  std::vector<Req> reqs = {{{3, 1, 0, 5}}, {{4, 1, 0, 5}}};
  EXPECT_EQ(named(reqs, {4, 1, 0, 5}), 1u);
  EXPECT_EQ(named(reqs, {3, 1, 0, 5}), 0u);
  EXPECT_EQ(named(reqs, {5, 1, 0, 5}), 2u); // a line on another communicator names neither
}

TEST(MessageKey, ALineNamingNoCommunicatorTakesAnyOnceTheWorldHasNone)
{
  std::vector<Req> reqs = {{{3, 1, 0, 5}}, {{0, 1, 0, 5}}};
  EXPECT_EQ(named(reqs, {0, 1, 0, 5}), 1u); // MPI_COMM_WORLD's own first
  reqs.pop_back();
  EXPECT_EQ(named(reqs, {0, 1, 0, 5}), 0u); // then any communicator's (traces without comm= on wait lines)
}

TEST(MessageKey, ANegativeTagNamingNothingTakesTheFirstNonblockingCollective)
{
  std::vector<Req> reqs = {{{0, 1, 0, 5}}, {{0, 0, 0, -10}, true}, {{0, 0, 0, -11}, true}};
  EXPECT_EQ(named(reqs, {0, 0, 0, -11}), 2u);  // its own key first
  EXPECT_EQ(named(reqs, {0, 2, 3, -3335}), 1u); // SimGrid's odd naming: the oldest collective
  EXPECT_EQ(named(reqs, {0, 2, 3, 8}), 3u);     // a non-negative tag never does
}

TEST(MessageKey, PostedAndNamedKeysOfLines)
{
  tit::trace::Action isend;
  isend.kind = tit::trace::Kind::Isend;
  isend.partner = 3;
  isend.tag = 9;
  isend.comm = 2;
  EXPECT_EQ(tit::trace::posted_key(isend, 1), (MessageKey{2, 1, 3, 9}));
  tit::trace::Action irecv = isend;
  irecv.kind = tit::trace::Kind::Irecv;
  irecv.partner = tit::trace::kAnySource;
  EXPECT_EQ(tit::trace::posted_key(irecv, 1), (MessageKey{2, tit::trace::kAnySource, 1, 9}));
  EXPECT_TRUE(tit::trace::may_name({0, 1, 3, 9}, {2, 1, 3, 9}));
  EXPECT_FALSE(tit::trace::may_name({4, 1, 3, 9}, {2, 1, 3, 9}));
}

} // namespace
