# Mini-applications of tests/mpi-programs/apps/: real MPI programs (Debian's Open MPI) that the accuracy
# harness (accuracy/accuracy) runs, traces and replays. Built into bin/app-NAME.
find_package(MPI REQUIRED COMPONENTS C)
foreach(app halo2d halo3d cg fft wavefront subcomm mg poll)
  add_executable(app-${app} ${CMAKE_CURRENT_LIST_DIR}/apps/${app}.c)
  target_link_libraries(app-${app} PRIVATE MPI::MPI_C m)
  target_compile_options(app-${app} PRIVATE -O2)
endforeach()
