# Differential test against SimGrid's own replayer (smpirun -replay): traces the MPI programs of
# tests/mpi-programs with SMPI, replays them with both simulators on every platform of
# platforms/ and compares the simulated times (relative tolerance 1e-9). Needs smpicc/smpirun
# (libsimgrid-dev). Included from tests/CMakeLists.txt.
add_test(NAME differential
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/run.sh ${CMAKE_BINARY_DIR} ${CMAKE_BINARY_DIR}/differential)
# About 4 min on a quiet 2-core machine, 9-15 min when other tests or builds load it: a generous limit.
# It runs DIFF_JOBS (2) replays at once: PROCESSORS 2 makes `ctest -j2` count both cores as taken while it runs,
# so no other test is started beside it (the same work, without 4 processes on 2 cores).
set_tests_properties(differential PROPERTIES TIMEOUT 1800 LABELS "differential;slow" PROCESSORS 2)

# Nonblocking collectives: SMPI's online simulation is the reference (SimGrid's replayer rejects them).
add_test(NAME differential-online COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/online.sh ${CMAKE_BINARY_DIR}
         ${CMAKE_BINARY_DIR}/differential-online)
set_tests_properties(differential-online PROPERTIES TIMEOUT 300)

# The ompi and mpich algorithm sets against SMPI's online runs of the collective programs: within 1%, or
# explained in README.md.
add_test(NAME differential-online-sets COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/online-sets.sh ${CMAKE_BINARY_DIR}
         ${CMAKE_BINARY_DIR}/differential-online-sets)
set_tests_properties(differential-online-sets PROPERTIES TIMEOUT 300)

# A trace whose control flow depended on timing (MPI_Test polling, tests/mpi-programs/pollring.c): with
# tit/traced-tests (the default) it equals SMPI's online run, with tit/traced-tests:no SimGrid's replayer; replayed with other parameters
# it completes without "never posted" warnings. About 3 s.
add_test(NAME differential-pollring COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/pollring.sh ${CMAKE_BINARY_DIR}
         ${CMAKE_BINARY_DIR}/differential-pollring)
set_tests_properties(differential-pollring PROPERTIES TIMEOUT 120)

# Buffered sends held by their rank, then detached past twice the ranks: both equal to smpirun -replay. About
# 30 s (SMPI's replay of a 160-rank allgather takes most of it).
add_test(NAME differential-buffered COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/buffered.sh ${CMAKE_BINARY_DIR}
         ${CMAKE_BINARY_DIR}/differential-buffered)
set_tests_properties(differential-buffered PROPERTIES TIMEOUT 600 LABELS "differential;slow")
