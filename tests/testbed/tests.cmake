# tit-testbed: bad-input messages (no testbed made), and real testbeds on this machine (root, network
# namespaces, Open MPI): each of those removes any testbed already up, runs alone (its measurements must
# not share the 2 cores with other tests) and takes its testbed down on every exit path.
add_test(NAME testbed.errors COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/run.sh ${CMAKE_BINARY_DIR} errors)
set_tests_properties(testbed.errors PROPERTIES TIMEOUT 60 LABELS quick)
add_test(NAME testbed.plot COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/run.sh ${CMAKE_BINARY_DIR} plot)
set_tests_properties(testbed.plot PROPERTIES TIMEOUT 60 LABELS quick)
foreach(case topology whatif slurm)
  add_test(NAME testbed.${case} COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/run.sh ${CMAKE_BINARY_DIR} ${case})
  set_tests_properties(testbed.${case} PROPERTIES TIMEOUT 900 LABELS "full;external;testbed" RUN_SERIAL TRUE)
endforeach()
# The what-if test's program (bulk ping-pong with some computation), built beside the mini-applications.
find_package(MPI REQUIRED COMPONENTS C)
add_executable(testbed-pingpong ${CMAKE_CURRENT_LIST_DIR}/pingpong.c)
target_include_directories(testbed-pingpong PRIVATE ${PROJECT_SOURCE_DIR}/tests/mpi-programs/apps)
target_link_libraries(testbed-pingpong PRIVATE MPI::MPI_C)
target_compile_options(testbed-pingpong PRIVATE -O2)
# The in-order delivery check of the study (testbed/README.md): K messages of one pair sent at once.
add_executable(testbed-inorder ${CMAKE_CURRENT_LIST_DIR}/inorder.c)
target_link_libraries(testbed-inorder PRIVATE MPI::MPI_C)
target_compile_options(testbed-inorder PRIVATE -O2)
