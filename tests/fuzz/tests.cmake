# The fuzz targets (scripts/check/fuzz.sh, fuzz/), one test each. scripts/test.sh builds them with clang before
# the tests (`fuzz.sh --build-only`, in BUILD/fuzz-build): a test only runs them, first on their regression inputs
# (tests/fuzz/regressions/TARGET/), then on a fixed number of inputs from a fixed seed, so that every run tries
# the same inputs (a finding is a bug to fix, never bad luck) and a loaded machine takes longer, not fewer
# inputs: FUZZ_SECONDS is a cap far above the 20-30 s each takes on a quiet 2-core machine.
if(NOT TIT_FUZZ)
  foreach(target trace compressed platform placement inputs) # otf2: by hand (fuzz/README.md)
    add_test(NAME fuzz.${target}
             COMMAND env FUZZ_RUNS=fixed FUZZ_SKIP_BUILD=1 FUZZ_SECONDS=540 FUZZ_BUILD_DIR=${CMAKE_BINARY_DIR}/fuzz-build
                     TIT_TRACE=$<TARGET_FILE:tit-trace-tool>
                     bash ${PROJECT_SOURCE_DIR}/scripts/check/fuzz.sh ${target})
    set_tests_properties(fuzz.${target} PROPERTIES TIMEOUT 600)
  endforeach()
endif()
