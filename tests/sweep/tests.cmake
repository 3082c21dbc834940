# tit-sweep (tests/sweep/run.sh cases, and a sweep through a one-machine Slurm started by slurm.sh).
foreach(case no-attribute bad-unit no-match empty-range bad-file bad-yaml bad-zip points local resume interrupted slurm-script cli fast-forward)
  add_test(NAME sweep.${case} COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/run.sh ${CMAKE_BINARY_DIR} ${case})
  set_tests_properties(sweep.${case} PROPERTIES TIMEOUT 120 LABELS sweep)
endforeach()
add_test(NAME sweep.slurm COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/slurm.sh ${CMAKE_BINARY_DIR})
set_tests_properties(sweep.slurm PROPERTIES TIMEOUT 240 LABELS sweep SKIP_RETURN_CODE 77 RUN_SERIAL TRUE)

# Unit tests of the sweep library (GoogleTest): units, selectors, points.
file(GLOB TIT_SWEEP_UNIT_TESTS CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/unit/*.cpp)
add_executable(tit-sweep-tests ${TIT_SWEEP_UNIT_TESTS})
target_link_libraries(tit-sweep-tests PRIVATE tit-sweep-lib GTest::gtest_main)
tit_test_optimisation(tit-sweep-tests)
gtest_discover_tests(tit-sweep-tests DISCOVERY_TIMEOUT 60 TEST_PREFIX sweep-unit. TEST_LIST tit_sweep_tests)
