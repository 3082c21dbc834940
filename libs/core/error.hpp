// The project's one error type and the wrapper around every program's main.
//
// Every error a user can cause (a bad file, option or trace) is a tit::Error, or a class derived from it that
// names the layer it comes from (TraceError, PlatformError, ...); it carries the exit status the program ends
// with. run_main() is the only place that turns exceptions into messages and exit statuses, so that no program
// can abort on an exception it forgot to catch.
#pragma once

#include <exception>
#include <functional>
#include <iostream>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>

namespace tit {

/// The exit statuses of every tit program.
enum class ExitCode : int {
  Success = 0,
  Internal = 1,   ///< the program's own bug, or the machine (memory, a tool it runs)
  BadInput = 2,   ///< a file, option or trace line the program cannot take
  Incomplete = 3, ///< a trace that cannot complete: it deadlocks, or a rank waits for what never comes
};

class Error : public std::runtime_error {
public:
  explicit Error(const std::string& what, ExitCode code = ExitCode::BadInput)
      : std::runtime_error(what), code_(code)
  {
  }
  ExitCode exit_code() const noexcept { return code_; }

private:
  ExitCode code_;
};

/// Runs `body` (a program's work after its options are parsed) and returns its exit status. An Error is printed
/// as `program: what` on `err` (`what` already says `error:` where it names a file and line) and ends with its
/// code; any other exception is the program's bug or the machine's: exit 1 with what is known of it.
inline int run_main(std::string_view program, const std::function<int()>& body, std::ostream& err = std::cerr)
{
  try {
    return body();
  } catch (const Error& e) {
    err << program << ": " << e.what() << '\n';
    return static_cast<int>(e.exit_code());
  } catch (const std::bad_alloc&) {
    err << program << ": error: out of memory\n";
  } catch (const std::exception& e) {
    err << program << ": internal error: " << e.what() << '\n';
  } catch (...) {
    err << program << ": internal error: unknown exception\n";
  }
  return static_cast<int>(ExitCode::Internal);
}

} // namespace tit
