# Workload replay (tit-replay --workload), tests/workload/run.sh: one CTest test per case.
foreach(case reference single disjoint shared selector outputs errors)
  add_test(NAME workload.${case} COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/run.sh ${CMAKE_BINARY_DIR} ${case})
  set_tests_properties(workload.${case} PROPERTIES TIMEOUT 180)
endforeach()
