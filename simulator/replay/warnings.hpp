// Warnings of a run, each reported once at its end: a warning that occurs again (the same key) is
// counted, not repeated, and its report says how many times it occurred.
#pragma once

#include <cstddef>
#include <string>
#include <unordered_map>
#include <vector>

namespace tit::replay {

class Warnings {
public:
  /// One occurrence of the warning `key`; `text` (with file and line) is kept from the first one.
  void add(const std::string& key, std::string text);
  /// A warning whose text identifies it (its own key).
  void add(std::string text);
  /// If `key` occurred already, counts one more occurrence and returns true (the caller need not
  /// format the text again); returns false otherwise.
  bool repeat(const std::string& key);
  /// The warnings in the order of their first occurrence; one that occurred n > 1 times ends with
  /// a line saying so.
  std::vector<std::string> report() const;

private:
  struct Entry {
    std::string text;
    std::size_t count = 0;
  };
  std::vector<Entry> entries_;
  std::unordered_map<std::string, std::size_t> index_;
};

} // namespace tit::replay
