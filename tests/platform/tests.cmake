# Platforms SimGrid would abort on (issue 20), one CTest test per case of tests/platform/run.sh.
foreach(case bandwidth-zero speed-zero speed-negative bandwidth-negative latency-negative no-route no-route-one-way
        core-zero radical-empty unknown-unit not-a-number not-finite pstate backbone-negative backbone-no-bandwidth
        limiter-negative loopback-no-bandwidth loopback-negative topology-size topology-syntax fat-tree-levels
        unknown-link unknown-host unknown-routing duplicate-route duplicate-name actor-in-platform version bad-xml valid)
  add_test(NAME platform.${case} COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/run.sh ${CMAKE_BINARY_DIR} ${case})
  set_tests_properties(platform.${case} PROPERTIES TIMEOUT 60)
endforeach()
