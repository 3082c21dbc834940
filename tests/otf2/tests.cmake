# OTF2 archives in (libs/otf2) and out (tit-replay --otf2), end to end (tests/otf2/run.sh). They need Debian's
# python3-otf2 (the archive generator) and otf2-tools (otf2-print).
foreach(case read-p2p read-nonblocking read-collectives read-subcomm read-metric read-time-rate read-sendrecv
             read-cancel read-nbc refuse-nbc-incomplete refuse-rma skip-rma refuse-missing-definition refuse-truncated refuse-metric
             refuse-not-archive refuse-otf2-exists direct anysource workload write-ring4.list write-halo4.list write-ring4-merged.list
             roundtrip-ring4.list roundtrip-halo4.list write-ibcast4 roundtrip-ibcast4
             completions-waitany-traced completions-testany-traced completions-test-repost completions-waitany
             completions-ibcast4 completions-halo4.list)
  add_test(NAME otf2.${case} COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/run.sh ${CMAKE_BINARY_DIR} ${case})
  set_tests_properties(otf2.${case} PROPERTIES TIMEOUT 120 LABELS full)
endforeach()
