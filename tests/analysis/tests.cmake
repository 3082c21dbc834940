# Timelines (Paje, Chrome trace, CSV, Gantt) and wait-state analysis, with hand-computed answers.
foreach(case chain-proportional chain-local-first critical-path late-receiver wait-at-nxn wait-at-barrier
        late-broadcast early-reduce early-scan random-properties other-traces timelines deterministic gantt compare
        dialects errors stopped)
  add_test(NAME analysis-${case} COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/run.sh ${CMAKE_BINARY_DIR} ${case})
  set_tests_properties(analysis-${case} PROPERTIES TIMEOUT 300 LABELS analysis)
endforeach()
