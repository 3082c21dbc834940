#include "replay/warnings.hpp"

#include <fmt/format.h>

namespace tit::replay {

void Warnings::add(const std::string& key, std::string text)
{
  auto [it, inserted] = index_.try_emplace(key, entries_.size());
  if (inserted)
    entries_.push_back(Entry{std::move(text), 0});
  ++entries_[it->second].count;
}

bool Warnings::repeat(const std::string& key)
{
  auto it = index_.find(key);
  if (it == index_.end())
    return false;
  ++entries_[it->second].count;
  return true;
}

void Warnings::add(std::string text)
{
  std::string key = text;
  add(key, std::move(text));
}

std::vector<std::string> Warnings::report() const
{
  std::vector<std::string> out;
  out.reserve(entries_.size());
  for (auto const& e : entries_)
    out.push_back(e.count == 1 ? e.text
                               : fmt::format("{}\n  (this warning occurred {} times; the first is shown)", e.text,
                                             e.count));
  return out;
}

} // namespace tit::replay
