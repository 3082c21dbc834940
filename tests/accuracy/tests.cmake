# The accuracy harness (accuracy/accuracy): a smoke run of a few seconds (real MPI, 1 rank) and its usage
# errors. The measurement itself is a script, not a test.
foreach(case smoke errors)
  add_test(NAME accuracy.${case} COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/run.sh ${CMAKE_BINARY_DIR} ${case})
  set_tests_properties(accuracy.${case} PROPERTIES TIMEOUT 60 LABELS accuracy)
endforeach()
