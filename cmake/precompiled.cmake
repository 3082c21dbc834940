# Precompiled headers: most of a translation unit's compile time here is spent parsing third-party headers (SimGrid's
# S4U and Boost behind it, CLI11's header-only implementation, GoogleTest, fmt), the same in every file of a target.
# Each target that calls tit_precompile() parses them once. Headers only (never the project's own), so that a source
# still compiles with TIT_PCH=OFF, which checks that every file includes what it uses.
option(TIT_PCH "Precompile the third-party headers (a shorter build)" ON)

set(TIT_PCH_STD <algorithm> <cstdint> <functional> <map> <memory> <optional> <set> <string> <string_view>
                <unordered_map> <vector> <fmt/format.h>)
set(TIT_PCH_SIMGRID <simgrid/s4u/Actor.hpp> <simgrid/s4u/Comm.hpp> <simgrid/s4u/Engine.hpp> <simgrid/s4u/Host.hpp>
                    <simgrid/s4u/Mailbox.hpp> <simgrid/s4u/Mutex.hpp> <simgrid/s4u/Semaphore.hpp>
                    <boost/container/small_vector.hpp>)
set(TIT_PCH_CLI <CLI/CLI.hpp>)
set(TIT_PCH_GTEST <gtest/gtest.h>)

# tit_precompile(TARGET SET...): TARGET's sources see the headers of each SET (STD, SIMGRID, CLI, GTEST), parsed once.
function(tit_precompile target)
  if(NOT TIT_PCH)
    return()
  endif()
  set(headers)
  foreach(set IN LISTS ARGN)
    if(NOT DEFINED TIT_PCH_${set})
      message(FATAL_ERROR "tit_precompile: no header set ${set}")
    endif()
    list(APPEND headers ${TIT_PCH_${set}})
  endforeach()
  target_precompile_headers(${target} PRIVATE ${headers})
endfunction()

# tit_precompile_cli(TARGET...): programs of one source file that use CLI11 share one precompiled CLI11 (a header
# precompiled for a single file would save nothing), made by an object library of an empty source.
function(tit_precompile_cli)
  if(NOT TIT_PCH)
    return()
  endif()
  if(NOT TARGET tit-pch-cli)
    file(WRITE ${PROJECT_BINARY_DIR}/tit-pch-cli.cpp "// the precompiled CLI11 and standard headers of the programs\n")
    add_library(tit-pch-cli OBJECT ${PROJECT_BINARY_DIR}/tit-pch-cli.cpp)
    target_link_libraries(tit-pch-cli PRIVATE fmt::fmt CLI11::CLI11)
    target_precompile_headers(tit-pch-cli PRIVATE ${TIT_PCH_STD} ${TIT_PCH_CLI})
  endif()
  foreach(target IN LISTS ARGN)
    target_precompile_headers(${target} REUSE_FROM tit-pch-cli)
  endforeach()
endfunction()
