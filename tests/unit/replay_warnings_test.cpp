// Warnings of a run: each reported once, a repeated one with its count.
#include "replay/warnings.hpp"

#include <gtest/gtest.h>

using tit::replay::Warnings;

TEST(Warnings, OnceIsReportedAsItIs)
{
  Warnings w;
  w.add("a.txt:3: warning: something");
  ASSERT_EQ(w.report().size(), 1u);
  EXPECT_EQ(w.report()[0], "a.txt:3: warning: something");
}

TEST(Warnings, RepeatsAreCountedAndTheFirstTextKept)
{
  Warnings w;
  EXPECT_FALSE(w.repeat("k"));
  w.add("k", "a.txt:3: warning: first");
  EXPECT_TRUE(w.repeat("k"));
  w.add("k", "a.txt:9: warning: third");
  w.add("other", "b.txt:1: warning: other");
  auto r = w.report();
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0], "a.txt:3: warning: first\n  (this warning occurred 3 times; the first is shown)");
  EXPECT_EQ(r[1], "b.txt:1: warning: other");
}

TEST(Warnings, IdenticalTextsAreOneWarning)
{
  Warnings w;
  w.add("x");
  w.add("y");
  w.add("x");
  auto r = w.report();
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0], "x\n  (this warning occurred 2 times; the first is shown)");
  EXPECT_EQ(r[1], "y");
}
