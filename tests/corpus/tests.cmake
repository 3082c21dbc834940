# The corpus scripts' offline parts (tests/corpus/run.sh): what needs no mirror of the codes nor a build of them.
add_test(NAME corpus.args COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/run.sh args)
set_tests_properties(corpus.args PROPERTIES TIMEOUT 60 LABELS corpus)
