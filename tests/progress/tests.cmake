# tit-replay --progress (tests/progress/progress.sh).
add_test(NAME progress.replay COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/progress.sh ${CMAKE_BINARY_DIR})
set_tests_properties(progress.replay PROPERTIES TIMEOUT 60 LABELS progress)
