# Compressed traces end to end (tests/compressed/run.sh), one CTest test per case.
foreach(case replay-same expand expand-dialect info truncated corrupt deadlock binned binned-joined binned-sizes stats stats-pattern stats-sporadic stats-classes stats-together stats-warmup stats-polling stats-check list bad-values bad-input)
  add_test(NAME compressed.${case} COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/run.sh ${CMAKE_BINARY_DIR} ${case})
  set_tests_properties(compressed.${case} PROPERTIES TIMEOUT 60 LABELS e2e)
endforeach()
