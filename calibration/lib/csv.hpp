// Raw measurement files of the calibration programs: CSV with a commented header.
//
//   # tit-calibrate p2p v1            <- first line: format name and version
//   # hosts: node-1,node-2            <- metadata, "# key: value"
//   experiment,size,iteration,seconds <- column names
//   send,1024,0,1.2e-06               <- one row per measurement
//
// Errors name the file, the line (row) and the column: "p2p.csv:17:3: error: ...".
#pragma once

#include "core/error.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace tit::calib {

/// Bad input (file, option). what() is the full message, starting with the file and line when known.
class InputError : public tit::Error {
public:
  using tit::Error::Error;
};

class CsvTable {
public:
  struct Row {
    std::uint64_t line = 0;          ///< 1-based line number in the file
    std::vector<std::string> fields; ///< as many as columns
  };

  /// Reads `path`. `format` is the expected first line's format name (e.g. "p2p"): the file must start
  /// with "# tit-calibrate <format> v1". Throws InputError (missing file, wrong format, a row with the
  /// wrong number of fields, no column header).
  static CsvTable read(const std::filesystem::path& path, std::string_view format);
  /// Same, from text in memory (`name` stands for the file name in messages).
  static CsvTable parse(std::string_view text, std::string name, std::string_view format);

  const std::string& name() const { return name_; }
  const std::vector<std::string>& columns() const { return columns_; }
  const std::vector<Row>& rows() const { return rows_; }
  /// Metadata value of "# key: value", or "" when absent.
  std::string meta(const std::string& key) const;
  const std::map<std::string, std::string>& metadata() const { return meta_; }

  /// Index of the named column; throws InputError naming the file and the columns it has.
  std::size_t column(std::string_view name) const;
  /// The field as a finite number (whole field consumed); throws "file:line:col: error: column 'c' ...".
  double number(const Row& row, std::size_t col) const;
  /// The field as a number >= 0 (the same errors, plus negative values).
  double non_negative(const Row& row, std::size_t col) const;
  /// The field as an integer >= 0.
  std::uint64_t count(const Row& row, std::size_t col) const;
  /// "file:line:col" of a field, for messages of the callers.
  std::string where(const Row& row, std::size_t col) const;

private:
  std::string name_;
  std::map<std::string, std::string> meta_;
  std::vector<std::string> columns_;
  std::vector<Row> rows_;
};

/// Parses a whole token as a finite double; false when it is not one.
bool parse_number(std::string_view token, double& out);

} // namespace tit::calib
