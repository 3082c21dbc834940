// The checks that stop a replay before SimGrid would abort: more ranks than the memory mappings allow, settings it
// aborts on.
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

TEST(RefusedSetting, AcceptsTheDefaultsAndTheSolverOptions)
{
  EXPECT_FALSE(refused_setting({}).has_value());
  EXPECT_FALSE(refused_setting({"network/optim:Full", "network/maxmin-selective-update:no", "cpu/optim:TI",
                                "maxmin/concurrency-limit:8", "contexts/nthreads:1", "smpi/os:0:1e-6:0"})
                   .has_value());
}

TEST(RefusedSetting, SaysWhatSimGridWouldAbortOn)
{
  EXPECT_EQ(refused_setting({"help"}).value_or(""),
            "error: --cfg=help: expected --cfg=NAME:VALUE (tit-replay --help lists the model parameters)");
  EXPECT_EQ(refused_setting({":1"}).value_or(""),
            "error: --cfg=:1: expected --cfg=NAME:VALUE (tit-replay --help lists the model parameters)");
  EXPECT_EQ(refused_setting({"network/optim:full"}).value_or(""),
            "error: --cfg=network/optim:full: expected Lazy (the default), Full or TI");
  EXPECT_EQ(refused_setting({"cpu/maxmin-selective-update:no"}).value_or(""),
            "error: --cfg=cpu/maxmin-selective-update:no: the lazy update (cpu/optim:Lazy, the default) needs "
            "selective update; expected yes, or cpu/optim:Full with it");
  // The last value of a name counts, as on SimGrid's command line.
  EXPECT_TRUE(refused_setting({"network/optim:Full", "network/optim:Lazy", "network/maxmin-selective-update:0"})
                  .has_value());
}

TEST(RefusedSetting, ParallelContexts)
{
  EXPECT_EQ(refused_setting({"contexts/nthreads:2"}).value_or(""),
            "error: --cfg=contexts/nthreads:2: tit-replay runs its ranks in one thread (they share the MPI layer's "
            "state without locks); expected 1");
}

} // namespace
} // namespace tit::replay
