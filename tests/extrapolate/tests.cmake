# tit-trace extrapolate end to end (tests/extrapolate/run.sh): SMPI traces of programs/stencil.c at small counts and
# at the target, one CTest test per case.
foreach(case butterfly butterfly-down butterfly-cg butterfly-rows butterfly-halo2d transpose sporadic sporadic-spread sporadic-once noise convergence ring cg halo2d torus2d torus3d bisection bisection-byrank bisection-splits error-side halo3d vectors neighbours wavefront report compressed grid error-programs error-trips checks error-gather vectors-distance vectors-data uneven error-args subcomm error-colour error-ambiguous)
  add_test(NAME extrapolate.${case} COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/run.sh ${CMAKE_BINARY_DIR} ${case})
  set_tests_properties(extrapolate.${case} PROPERTIES TIMEOUT 60 LABELS extrapolate)
  if(case STREQUAL "bisection-splits")
    # 240 Open MPI processes on the machine's cores (16 + 32 + 64 + 128 ranks traced): 28 s on 2 idle cores
    set_tests_properties(extrapolate.${case} PROPERTIES TIMEOUT 180)
  endif()
  # the sanitizer stage (scripts/check/sanitize.sh) runs them too, but for the cases traced by our tracer: that
  # build makes no libtit-trace.so (a sanitized library cannot be preloaded into mpirun's ranks)
  if(NOT case MATCHES "^(subcomm|bisection-splits|error-colour|error-ambiguous)$")
    set_property(TEST extrapolate.${case} APPEND PROPERTY LABELS sanitized)
  endif()
endforeach()
