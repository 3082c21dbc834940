// The check that stops a replay of more ranks than the process's memory mappings allow (SimGrid would abort).
#include "replay/limits.hpp"

#include <gtest/gtest.h>

namespace tit::replay {
namespace {

TEST(MappingLimit, FitsBelowTheLimit)
{
  EXPECT_FALSE(mapping_problem(16384, 1, 65530).has_value()); // 2 x 16384 + 4096 = 36864
  EXPECT_FALSE(mapping_problem(30717, 1, 65530).has_value()); // exactly 65530
}

TEST(MappingLimit, NoGuardPagesNoLimit)
{
  EXPECT_FALSE(mapping_problem(65536, 0, 65530).has_value());
}

TEST(MappingLimit, SaysWhichLimitToRaise)
{
  auto problem = mapping_problem(65536, 1, 65530);
  ASSERT_TRUE(problem.has_value());
  EXPECT_EQ(*problem,
            "error: 65536 ranks need about 135168 memory mappings (each rank's stack and its guard page take two), but "
            "a process may hold 65530 (vm.max_map_count); expected a limit of at least 135168: raise it with `sysctl "
            "-w vm.max_map_count=135168` (as root), or drop the stacks' guard pages with --cfg=contexts/guard-size:0 "
            "and smaller stacks such as --cfg=contexts/stack-size:32 (KiB; a stack overflow then goes undetected)");
  EXPECT_TRUE(mapping_problem(30718, 1, 65530).has_value()); // one rank past the limit
}

} // namespace
} // namespace tit::replay
