#include "replay/communicators.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

namespace tit::replay {

int Communicator::local_rank(int r) const
{
  if (identity_)
    return r >= 0 && static_cast<std::size_t>(r) < members.size() ? r : -1;
  auto it = std::lower_bound(by_world_.begin(), by_world_.end(), std::make_pair(r, std::numeric_limits<int>::min()));
  return it != by_world_.end() && it->first == r ? it->second : -1;
}

void Communicator::index()
{
  identity_ = true;
  for (std::size_t i = 0; i < members.size() && identity_; ++i)
    identity_ = members[i] == static_cast<int>(i);
  by_world_.clear();
  if (identity_)
    return;
  for (std::size_t i = 0; i < members.size(); ++i)
    by_world_.emplace_back(members[i], static_cast<int>(i));
  // A rank listed twice (comm_create of a bad group) keeps its first position, as the scan it replaces did.
  std::stable_sort(by_world_.begin(), by_world_.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
}

Communicators::Communicators(int world_size)
{
  std::vector<int> all(static_cast<std::size_t>(world_size));
  for (int r = 0; r < world_size; ++r)
    all[static_cast<std::size_t>(r)] = r;
  add(std::move(all));
}

const Communicator* Communicators::add(std::vector<int> members)
{
  auto c = std::make_unique<Communicator>();
  c->id = static_cast<int>(all_.size());
  c->members = std::move(members);
  c->index();
  all_.push_back(std::move(c));
  return all_.back().get();
}

const Communicator* Communicators::split(const Communicator& parent, int seq, int rank, int color, int key)
{
  // Actors run one at a time: no lock is needed, only a way to block until the last member arrives (a
  // semaphore, which a rank killed while waiting leaves without any unwinding to do).
  auto& s = splits_[{parent.id, seq}];
  if (not s.arrived)
    s.arrived = simgrid::s4u::Semaphore::create(0);
  s.entries.emplace_back(color, key, parent.local_rank(rank));
  if (s.entries.size() == parent.members.size()) {
    // MPI's rule: the members of a color ordered by key, ties broken by their rank in the parent.
    auto entries = s.entries;
    std::sort(entries.begin(), entries.end(), [](auto const& a, auto const& b) {
      return std::tie(std::get<0>(a), std::get<1>(a), std::get<2>(a)) <
             std::tie(std::get<0>(b), std::get<1>(b), std::get<2>(b));
    });
    for (std::size_t i = 0; i < entries.size();) {
      int c = std::get<0>(entries[i]);
      std::vector<int> members;
      for (; i < entries.size() && std::get<0>(entries[i]) == c; ++i)
        members.push_back(parent.members.at(static_cast<std::size_t>(std::get<2>(entries[i]))));
      if (c >= 0)
        s.result[c] = add(std::move(members));
    }
    s.resolved = true;
    for (int i = 0; i < s.waiting; ++i)
      s.arrived->release();
  } else {
    s.waiting++;
    s.arrived->acquire();
  }
  if (color < 0)
    return nullptr;
  return s.result.at(color);
}

const Communicator* Communicators::create(const Communicator& parent, const std::vector<int>& group, int nth)
{
  auto& slot = created_[{parent.id, group, nth}];
  if (slot == nullptr) {
    std::vector<int> members;
    for (int r : group)
      members.push_back(parent.members.at(static_cast<std::size_t>(r)));
    slot = add(std::move(members));
  }
  return slot;
}

std::string Communicators::pending() const
{
  std::string out;
  for (auto const& [key, s] : splits_)
    if (not s.resolved)
      out += fmt::format("\n  communicator creation number {} on communicator {} (of {} members): {} arrived",
                         key.second + 1, key.first, get(key.first).members.size(), s.entries.size());
  return out;
}

colls::SubComm view_of(mpi::Rank& rank, const Communicator& comm)
{
  int id = comm.id;
  return colls::SubComm(rank, comm.members, comm.local_rank(rank.rank()), id,
                        [id](int tag) { return mpi::Match{id, tag}; });
}

} // namespace tit::replay
