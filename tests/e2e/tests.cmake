# End-to-end cases of tests/e2e/run.sh, one CTest test each.
foreach(case detached rendezvous thesis-gz-merged hostfile nonblocking overheads os-overhead barrier actions-log
        merge-computations
        no-trailing-newline rank-gone deadlock deadlock-sources deadlock-rendezvous unsupported-action unknown-action missing-traces
        missing-platform bad-platform unknown-host rank-mismatch merged-rank-mismatch bad-cfg-value unknown-cfg bad-option cfg-no-value cfg-lazy-no-select parallel-contexts determinism probe deadlock-probe deadlock-pending deadlock-polling platform-config host-property bcast-binomial scatter-linear every-algorithm coll-errors ssend bsend waitany testall polling-note coll-mismatch coll-root-mismatch coll-never-reached any-source any-source-pending any-source-deadlock ibcast
        fd-limit
        subcomm-halves subcomm-keys subcomm-dup-create subcomm-context subcomm-missing subcomm-errors
        subcomm-wait subcomm-wait-legacy warnings-repeated speed-units speed-units-mixed
        local-copy local-copy-alltoall local-copy-config local-copy-bad host-availability host-availability-bad
        in-order-delivery busy-wait call-overheads coll-overhead rank-start
        test-traced-pending test-traced-repost waitany-traced testany-traced test-lookahead-window bad-traced-tests)
  add_test(NAME e2e.${case} COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/run.sh ${CMAKE_BINARY_DIR} ${case})
  set_tests_properties(e2e.${case} PROPERTIES TIMEOUT 60 LABELS e2e)
endforeach()

# Hand-computed times of every collective algorithm (tests/e2e/algorithms.sh), one CTest test per collective.
foreach(coll barrier bcast reduce allreduce gather gatherv scatter scatterv allgather allgatherv alltoall alltoallv
        reducescatter scan exscan)
  add_test(NAME e2e-algos.${coll} COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/algorithms.sh ${CMAKE_BINARY_DIR} ${coll})
  set_tests_properties(e2e-algos.${coll} PROPERTIES TIMEOUT 120)
endforeach()
add_test(NAME e2e-algos.readme-table COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/algorithms.sh ${CMAKE_BINARY_DIR} --readme)
