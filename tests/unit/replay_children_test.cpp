// replay::in_children: works run in child processes, some at once; each answer comes back in the order of the works,
// whatever its size and however many run together, and a child that dies gives nothing without stopping the others.
#include "replay/child.hpp"

#include <gtest/gtest.h>

#include <csignal>
#include <functional>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

using tit::replay::in_children;

/// An answer of `size` characters that says which work wrote it.
std::string answer(std::size_t index, std::size_t size)
{
  std::string out = std::to_string(index) + ":";
  while (out.size() < size)
    out += static_cast<char>('a' + (out.size() + index) % 26);
  return out;
}

TEST(ReplayChildren, AnswersComeBackInOrderWhateverTheirSizeAndHowManyRunAtOnce)
{
  // sizes beyond a pipe's buffer (64 KiB): a child blocks on its write until the parent reads it
  const std::vector<std::size_t> sizes = {0, 10, 300000, 5, 200000, 70000, 1};
  std::vector<std::function<std::string()>> works;
  for (std::size_t i = 0; i < sizes.size(); ++i)
    works.push_back([i, &sizes] { return sizes[i] == 0 ? std::string() : answer(i, sizes[i]); });
  for (unsigned parallel : {0u, 1u, 2u, 3u, 16u}) {
    auto out = in_children(works, parallel);
    ASSERT_EQ(out.size(), sizes.size()) << "parallel " << parallel;
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      ASSERT_TRUE(out[i].has_value()) << "work " << i << ", parallel " << parallel;
      EXPECT_EQ(*out[i], sizes[i] == 0 ? std::string() : answer(i, sizes[i])) << "work " << i << ", parallel "
                                                                              << parallel;
    }
  }
}

TEST(ReplayChildren, AChildThatDiesGivesNothingAndTheOthersStillAnswer)
{
  std::vector<std::function<std::string()>> works = {
      [] { return std::string("first"); },
      []() -> std::string { _exit(3); },                 // ends without answering
      []() -> std::string { raise(SIGKILL); return "never"; }, // killed
      [] { return answer(3, 100000); },
  };
  for (unsigned parallel : {1u, 4u}) {
    auto out = in_children(works, parallel);
    ASSERT_EQ(out.size(), 4U);
    EXPECT_EQ(out[0], std::optional<std::string>("first"));
    EXPECT_FALSE(out[1].has_value());
    EXPECT_FALSE(out[2].has_value());
    EXPECT_EQ(out[3], std::optional<std::string>(answer(3, 100000)));
  }
}

TEST(ReplayChildren, NoWorkNoChildAndOneCpuAtLeast)
{
  EXPECT_TRUE(in_children({}, 2).empty());
  EXPECT_GE(tit::replay::usable_cpus(), 1U);
}

} // namespace
