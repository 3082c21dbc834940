# Message identity (tests/identity/run.sh): sub-communicator traffic in timelines and analysis, collectives
# on sub-communicators with every selector, negative tags. One CTest test per case.
foreach(case subcomm-analysis subcomm-timelines ibarrier-subcomm selectors-subcomm nonblocking-subcomm negative-tags)
  add_test(NAME identity.${case} COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/run.sh ${CMAKE_BINARY_DIR} ${case})
  set_tests_properties(identity.${case} PROPERTIES TIMEOUT 120)
endforeach()
