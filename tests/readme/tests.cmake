# README test: the two commands at the top of README.md exist and are executable, the demo command
# replays the bundled example with the binary of this build (no install, no build), and .ci/run
# runs the README's test command. See check-readme.sh.
get_filename_component(_tit_readme_root "${CMAKE_CURRENT_LIST_DIR}/../.." ABSOLUTE)
add_test(NAME readme-commands
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/check-readme.sh ${_tit_readme_root} ${CMAKE_BINARY_DIR})
set_tests_properties(readme-commands PROPERTIES TIMEOUT 120 LABELS readme)
unset(_tit_readme_root)

# Documentation links resolve inside the repository, and nothing points outside it.
add_test(NAME readme-links COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/check-links.py ${CMAKE_CURRENT_LIST_DIR}/../..)
set_tests_properties(readme-links PROPERTIES TIMEOUT 60 LABELS readme)

# The rooms keep their rules: SimGrid-free libraries and tools, libs/ including only libs/.
add_test(NAME layout COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/check-layout.sh ${CMAKE_CURRENT_LIST_DIR}/../..)
set_tests_properties(layout PROPERTIES TIMEOUT 60 LABELS readme)
