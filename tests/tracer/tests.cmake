# Tests of the MPI tracer (tracer/): test programs built with the MPI compiler wrappers' settings,
# run under mpirun with libtit-trace.so preloaded (and one linked), compared with golden action
# sequences, replayed, compared with SimGrid's own tracer; error cases. Included from tests/CMakeLists.txt.
find_package(MPI REQUIRED COMPONENTS C CXX)
set(TIT_TRACER_TEST_BIN ${CMAKE_BINARY_DIR}/tracer-tests/bin)
set(TIT_TRACER_PROGRAMS ring halo nbmix wildcard persistent subwait colls subcomm subreq aborter overhead cpuwork calls_twin untraced)
foreach(p ${TIT_TRACER_PROGRAMS})
  add_executable(tracer-test-${p} ${CMAKE_CURRENT_LIST_DIR}/programs/${p}.c)
  target_link_libraries(tracer-test-${p} PRIVATE MPI::MPI_C)
  set_target_properties(tracer-test-${p} PROPERTIES OUTPUT_NAME ${p} RUNTIME_OUTPUT_DIRECTORY ${TIT_TRACER_TEST_BIN})
  target_compile_options(tracer-test-${p} PRIVATE -O1 -Wno-pedantic)
endforeach()
# The same ring linked with the tracer instead of preloaded (LD_PRELOAD then adds nothing new).
add_executable(tracer-test-ring_linked ${CMAKE_CURRENT_LIST_DIR}/programs/ring.c)
target_link_libraries(tracer-test-ring_linked PRIVATE tit-tracer MPI::MPI_C)
set_target_properties(tracer-test-ring_linked PROPERTIES OUTPUT_NAME ring_linked RUNTIME_OUTPUT_DIRECTORY ${TIT_TRACER_TEST_BIN})
target_compile_options(tracer-test-ring_linked PRIVATE -O1 -Wno-pedantic)
# The same ring compiled as C++.
add_executable(tracer-test-ring_cxx ${CMAKE_CURRENT_LIST_DIR}/programs/ring_cxx.cpp)
target_link_libraries(tracer-test-ring_cxx PRIVATE MPI::MPI_CXX)
set_target_properties(tracer-test-ring_cxx PROPERTIES OUTPUT_NAME ring_cxx RUNTIME_OUTPUT_DIRECTORY ${TIT_TRACER_TEST_BIN})
target_compile_options(tracer-test-ring_cxx PRIVATE -O1 -Wno-pedantic)
# Fortran, through Open MPI's own wrapper compiler (the project enables no Fortran language).
find_program(TIT_MPIF90 NAMES mpif90 mpifort REQUIRED)
add_custom_command(OUTPUT ${TIT_TRACER_TEST_BIN}/fring
                   COMMAND ${CMAKE_COMMAND} -E make_directory ${TIT_TRACER_TEST_BIN}
                   COMMAND ${TIT_MPIF90} -O1 -o ${TIT_TRACER_TEST_BIN}/fring ${CMAKE_CURRENT_LIST_DIR}/programs/fring.f90
                   DEPENDS ${CMAKE_CURRENT_LIST_DIR}/programs/fring.f90 VERBATIM)
add_custom_target(tracer-test-fring ALL DEPENDS ${TIT_TRACER_TEST_BIN}/fring)
# The Fortran entry points beyond fring's, against their C twin (programs/calls_twin.c): case fortran-twin.
add_custom_command(OUTPUT ${TIT_TRACER_TEST_BIN}/fcalls
                   COMMAND ${CMAKE_COMMAND} -E make_directory ${TIT_TRACER_TEST_BIN}
                   COMMAND ${TIT_MPIF90} -O1 -o ${TIT_TRACER_TEST_BIN}/fcalls ${CMAKE_CURRENT_LIST_DIR}/programs/fcalls.f90
                   DEPENDS ${CMAKE_CURRENT_LIST_DIR}/programs/fcalls.f90 VERBATIM)
add_custom_target(tracer-test-fcalls ALL DEPENDS ${TIT_TRACER_TEST_BIN}/fcalls)
add_custom_command(OUTPUT ${TIT_TRACER_TEST_BIN}/funtraced
                   COMMAND ${CMAKE_COMMAND} -E make_directory ${TIT_TRACER_TEST_BIN}
                   COMMAND ${TIT_MPIF90} -O1 -o ${TIT_TRACER_TEST_BIN}/funtraced ${CMAKE_CURRENT_LIST_DIR}/programs/funtraced.f90
                   DEPENDS ${CMAKE_CURRENT_LIST_DIR}/programs/funtraced.f90 VERBATIM)
add_custom_target(tracer-test-funtraced ALL DEPENDS ${TIT_TRACER_TEST_BIN}/funtraced)

set(TIT_TRACER_RUN bash ${CMAKE_CURRENT_LIST_DIR}/run.sh ${CMAKE_BINARY_DIR})
foreach(c ring:2 ring:5 halo:4 halo:6 nbmix:4 nbmix:5 wildcard:3 wildcard:8 persistent:3 subwait:3 colls:2 colls:7
          subcomm:4 subcomm:5 subreq:4 fring:3 ring_linked:2 ring_cxx:2)
  string(REPLACE ":" ";" pn ${c})
  list(GET pn 0 p)
  list(GET pn 1 n)
  add_test(NAME tracer.golden.${p}.np${n} COMMAND ${TIT_TRACER_RUN} golden ${p} ${n})
endforeach()
foreach(c ring:4 halo:4 nbmix:4 wildcard:3 persistent:3 colls:4 subcomm:4)
  string(REPLACE ":" ";" pn ${c})
  list(GET pn 0 p)
  list(GET pn 1 n)
  add_test(NAME tracer.smpi.${p}.np${n} COMMAND ${TIT_TRACER_RUN} smpi ${p} ${n})
endforeach()
# tit-trace proxy: the proxy of a trace, traced, gives back the trace's action sequence (docs/proxy.md).
foreach(c ring:5 halo:4 colls:7 wildcard:3 nbmix:4 subcomm:4 subreq:4 persistent:3)
  string(REPLACE ":" ";" pn ${c})
  list(GET pn 0 p)
  list(GET pn 1 n)
  add_test(NAME tracer.proxy.${p}.np${n} COMMAND ${TIT_TRACER_RUN} proxy ${p} ${n})
endforeach()
# TIT_TRACE_FORMAT=compressed: loops, any-source, nonblocking collectives, sub-communicators and their requests.
foreach(c ring:5 halo:4 wildcard:3 colls:7 nbmix:4 subcomm:5)
  string(REPLACE ":" ";" pn ${c})
  list(GET pn 0 p)
  list(GET pn 1 n)
  add_test(NAME tracer.online.${p}.np${n} COMMAND ${TIT_TRACER_RUN} online ${p} ${n})
endforeach()
foreach(c online-binned online-stats online-memory online-errors timings min-burst-zero fallback-notice instructions-mode bad-setting cpu-folded cpu-sleeps unwritable-dir full-disk abort
          convert-thesis convert-pre320 convert-traced convert-roundtrip convert-durations convert-tit-trace convert-errors exports bench-overhead
          subcomm-requests comm-note fortran-twin untraced proxy-errors proxy-example proxy-sleep proxy-dialect1 proxy-hygiene proxy-agreement
          proxy-wait-rule proxy-send-buffer)
  add_test(NAME tracer.${c} COMMAND ${TIT_TRACER_RUN} ${c})
endforeach()
get_property(TIT_TRACER_TESTS DIRECTORY PROPERTY TESTS)
list(FILTER TIT_TRACER_TESTS INCLUDE REGEX "^tracer\\.")
set_tests_properties(${TIT_TRACER_TESTS} PROPERTIES TIMEOUT 180 LABELS tracer)
# The CPU-clock tests compare the tracer's volumes with the program's own CPU time: another test
# loading the two cores at the same time makes the clock's error larger (seen: 10-25 % over on one
# burst of cpu-sleeps while a CPU hog ran), so they run alone; bench-overhead measures ratios.
set_tests_properties(tracer.cpu-folded tracer.cpu-sleeps tracer.bench-overhead PROPERTIES RUN_SERIAL TRUE)
