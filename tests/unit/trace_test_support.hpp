// Scratch files for the trace reader's tests (defined in trace_test_support.cpp).
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <string_view>

namespace tit::trace::test_support {
/// A fresh directory for the running test, removed at exit.
std::filesystem::path scratch_dir();
std::filesystem::path write_file(const std::filesystem::path& path, std::string_view content);
std::filesystem::path write_gz(const std::filesystem::path& path, std::string_view content);
/// The message of the TraceError `run` throws ("" when it throws none).
std::string trace_error(const std::function<void()>& run);
} // namespace tit::trace::test_support
