# Calibration tests: the fitting library (GoogleTest, its own binary) and shell tests of the tools,
# including the measurement walkthrough on this machine (real MPI, 2 ranks).
file(GLOB TIT_CALIB_TESTS CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/*_test.cpp)
add_executable(tit-calib-tests ${TIT_CALIB_TESTS})
target_link_libraries(tit-calib-tests PRIVATE tit-calib GTest::gtest_main)
target_compile_definitions(tit-calib-tests PRIVATE TIT_CALIB_TEST_DATA="${CMAKE_CURRENT_LIST_DIR}/data")
tit_precompile(tit-calib-tests STD GTEST)
tit_test_optimisation(tit-calib-tests)
gtest_discover_tests(tit-calib-tests TEST_PREFIX calibration-unit. DISCOVERY_TIMEOUT 60 TEST_LIST tit_calib_tests)

foreach(case synthetic-replay generator-simgrid cli-errors compare compare-collectives walkthrough-shm walkthrough-tcp)
  add_test(NAME calibration.${case} COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/run.sh ${CMAKE_BINARY_DIR} ${case})
  set_tests_properties(calibration.${case} PROPERTIES TIMEOUT 400 LABELS calibration)
endforeach()
# The walkthroughs measure with 2 ranks busy-polling on the machine's 2 cores: nothing else runs beside
# them (a few seconds each), so that other tests do not disturb the measurements.
set_tests_properties(calibration.walkthrough-shm calibration.walkthrough-tcp PROPERTIES RUN_SERIAL TRUE)
