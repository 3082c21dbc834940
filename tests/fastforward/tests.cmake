# tit-replay --fast-forward (tests/fastforward/run.sh): generated traces replayed in full and fast-forwarded.
foreach(case identical pipeline drift phases noise stencil parallel bytes uneven short cheaper compressed otf2 tolerance refusals bad-trace)
  add_test(NAME fastforward.${case} COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/run.sh ${CMAKE_BINARY_DIR} ${case})
  set_tests_properties(fastforward.${case} PROPERTIES TIMEOUT 120 LABELS fastforward)
endforeach()
