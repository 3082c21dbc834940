// Scratch files for the trace reader's tests: one fresh directory per test, removed at exit.
#include "trace_test_support.hpp"
#include "trace/reader.hpp"

#include <gtest/gtest.h>
#include <unistd.h>
#include <zlib.h>

#include <fstream>
#include <functional>

namespace fs = std::filesystem;

namespace tit::trace::test_support {

namespace {

fs::path process_dir()
{
  struct Owner { // removes this process' scratch tree at exit
    fs::path dir = fs::temp_directory_path() / ("tit-trace-tests-" + std::to_string(::getpid()));
    ~Owner()
    {
      std::error_code ec;
      fs::remove_all(dir, ec);
    }
  };
  static Owner owner;
  return owner.dir;
}

} // namespace

/// A fresh directory for the running test (the same one for every call in that test).
fs::path scratch_dir()
{
  const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string name = info != nullptr ? std::string(info->test_suite_name()) + "." + info->name() : "no-test";
  for (char& c : name)
    if (c == '/')
      c = '_';
  fs::path dir = process_dir() / name;
  static std::string current; // the test whose directory is made: later calls of that test share it
  if (current != name) {
    current = name;
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  return dir;
}

fs::path write_file(const fs::path& path, std::string_view content)
{
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary);
  out.write(content.data(), static_cast<std::streamsize>(content.size()));
  if (!out)
    throw std::runtime_error("cannot write " + path.string());
  return path;
}

fs::path write_gz(const fs::path& path, std::string_view content)
{
  fs::create_directories(path.parent_path());
  gzFile gz = gzopen(path.c_str(), "wb");
  auto size = static_cast<unsigned>(content.size());
  if (gz == nullptr || gzwrite(gz, content.data(), size) != static_cast<int>(size))
    throw std::runtime_error("cannot write " + path.string());
  gzclose(gz);
  return path;
}

std::string trace_error(const std::function<void()>& run)
{
  try {
    run();
  } catch (const TraceError& e) {
    return e.what();
  }
  return "<no error>";
}

} // namespace tit::trace::test_support
