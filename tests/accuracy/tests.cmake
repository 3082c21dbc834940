# The accuracy harness (accuracy/accuracy) and its span library (libtit-span.so, accuracy/span/): a smoke run
# of a few seconds (real MPI, 1 rank), its usage errors, the span library on C and Fortran programs that
# print no span (plain and traced runs), per-program rank counts and predictions again from kept runs.
# The measurement itself is a script, not a test.
find_package(MPI REQUIRED COMPONENTS C)
set(TIT_ACCURACY_TEST_BIN ${CMAKE_BINARY_DIR}/accuracy-tests/bin)
add_executable(accuracy-test-quiet ${CMAKE_CURRENT_LIST_DIR}/programs/quiet.c)
target_link_libraries(accuracy-test-quiet PRIVATE MPI::MPI_C)
set_target_properties(accuracy-test-quiet PROPERTIES OUTPUT_NAME quiet RUNTIME_OUTPUT_DIRECTORY ${TIT_ACCURACY_TEST_BIN})
target_compile_options(accuracy-test-quiet PRIVATE -O1)
# Fortran through Open MPI's wrapper compiler, as tests/tracer does (the project enables no Fortran language).
find_program(TIT_MPIF90 NAMES mpif90 mpifort REQUIRED)
foreach(f fquiet fquiet08)
  add_custom_command(OUTPUT ${TIT_ACCURACY_TEST_BIN}/${f}
                     COMMAND ${CMAKE_COMMAND} -E make_directory ${TIT_ACCURACY_TEST_BIN}
                     COMMAND ${TIT_MPIF90} -O1 -o ${TIT_ACCURACY_TEST_BIN}/${f}
                             ${CMAKE_CURRENT_LIST_DIR}/programs/${f}.f90
                     DEPENDS ${CMAKE_CURRENT_LIST_DIR}/programs/${f}.f90 VERBATIM)
  add_custom_target(accuracy-test-${f} ALL DEPENDS ${TIT_ACCURACY_TEST_BIN}/${f})
endforeach()

foreach(case smoke errors span-c span-c-thread span-fortran span-f08 programs from from-errors route)
  add_test(NAME accuracy.${case} COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/run.sh ${CMAKE_BINARY_DIR} ${case})
  set_tests_properties(accuracy.${case} PROPERTIES TIMEOUT 300 LABELS "accuracy;full;external")
endforeach()
