# The fuzz targets (scripts/check/fuzz.sh, fuzz/): built with clang in a directory of their own, each replays its
# regression inputs (tests/fuzz/regressions/TARGET/) then fuzzes a fixed number of inputs from a fixed seed, so that
# the test finds the same inputs on every run (a finding is a bug to fix, never bad luck), with FUZZ_SECONDS as a cap.
# Not registered inside the fuzz build itself.
if(NOT TIT_FUZZ)
  add_test(NAME fuzz COMMAND env FUZZ_RUNS=fixed FUZZ_SECONDS=60 FUZZ_BUILD_DIR=${CMAKE_BINARY_DIR}/fuzz-build
                             bash ${PROJECT_SOURCE_DIR}/scripts/check/fuzz.sh)
  set_tests_properties(fuzz PROPERTIES TIMEOUT 600)
endif()
