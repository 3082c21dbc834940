// Receives from any source that could take another message (proxy_races.hpp).
#include "proxy_races.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>

namespace tit::tracetool {

void merge(Clock& into, const Clock& from)
{
  if (into.size() < from.size())
    into.resize(from.size(), 0);
  for (std::size_t i = 0; i < from.size(); ++i)
    into[i] = std::max(into[i], from[i]);
}

AnySourceRaces::AnySourceRaces(int ranks)
    : slot_of_(static_cast<std::size_t>(ranks), -1), clocks_(static_cast<std::size_t>(ranks))
{
}

std::uint32_t AnySourceRaces::known(int from, int of) const
{
  int slot = slot_of_[static_cast<std::size_t>(of)];
  const Clock& c = clocks_[static_cast<std::size_t>(from)];
  return slot >= 0 && static_cast<std::size_t>(slot) < c.size() ? c[static_cast<std::size_t>(slot)] : 0;
}

AnySourceReceive* AnySourceRaces::posted(int r, std::uint32_t comm, int tag, std::uint64_t post,
                                         const std::string* file, std::uint64_t line)
{
  int& slot = slot_of_[static_cast<std::size_t>(r)];
  if (slot < 0 && slots_ < kMaxRanks)
    slot = slots_++;
  if (slot < 0) {
    unanalysed_ = true;
    return nullptr;
  }
  auto& kept = kept_[{comm, r, tag}];
  while (kept.size() >= kKept && kept.front().known != 0) // a record still referenced (not known complete) stays
    kept.pop_front();
  kept.push_back({post, -1, 0, file, line, false});
  return &kept.back();
}

void AnySourceRaces::taken(std::uint32_t comm, int dst, int tag, int src, std::uint32_t known, std::uint64_t post,
                           const std::string* file, std::uint64_t line)
{
  auto w = kept_.find({comm, dst, tag});
  if (w == kept_.end())
    return;
  for (auto it = w->second.rbegin(); it != w->second.rend(); ++it)
    if (it->post < post && it->src >= 0 && it->src != src && (it->known == 0 || it->known > known)) {
      if (it->ambiguous)
        return;
      it->ambiguous = true;
      auto where = [](const std::string* f, std::uint64_t l) {
        return fmt::format("{}:{}", f ? *f : std::string("<trace>"), l);
      };
      if (ambiguous_++ == 0)
        first_ = {comm, dst, tag, it->src, src, where(it->file, it->line), where(file, line)};
      if (others_.size() < kKeptOthers)
        others_.push_back({dst, it->post, src, where(it->file, it->line)});
      return;
    }
}

void AnySourceRaces::learn(int r, const Clock& c, AnySourceReceive* wild)
{
  Clock& k = clock(r);
  merge(k, c);
  int slot = slot_of_[static_cast<std::size_t>(r)];
  if (wild != nullptr && slot >= 0) {
    if (k.size() <= static_cast<std::size_t>(slot))
      k.resize(static_cast<std::size_t>(slot) + 1, 0);
    wild->known = ++k[static_cast<std::size_t>(slot)];
  }
}

void AnySourceRaces::report(std::ostream& warnings, const std::function<std::string(std::uint32_t)>& comm_name) const
{
  if (ambiguous_ > 0)
    fmt::print(warnings, "tit-trace: warning: {} receive(s) from any source could take another message than in the "
                         "order checked (first: rank {}'s receive from any source at {} took the message of rank {} "
                         "with tag {}{}; the one rank {} sent at {} could have come first): the other matches of the "
                         "first {} are explored, one at a time, not together, so a deadlock that needs another choice "
                         "is not excluded (docs/proxy.md#receives-from-any-source)\n",
               ambiguous_, first_.dst, first_.at, first_.took, first_.tag,
               first_.comm == 0 ? "" : " on " + comm_name(first_.comm), first_.other, first_.sent_at, kKeptOthers);
  if (unanalysed_)
    fmt::print(warnings, "tit-trace: warning: more than {} ranks receive from any source: the receives of the others "
                         "are not analysed for other possible matches (docs/proxy.md#receives-from-any-source)\n",
               kMaxRanks);
}

} // namespace tit::tracetool
