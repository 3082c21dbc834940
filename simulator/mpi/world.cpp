#include "mpi/world.hpp"

#include <fmt/core.h>
#include <simgrid/s4u/Actor.hpp>

#include <algorithm>

namespace tit::mpi {

World::World(model::MpiParams params, int rank_count)
    : params_(std::move(params)), rank_count_(rank_count), actors_(rank_count)
{
}

World::Channel& World::channel(int src, int dst, int tag)
{
  auto [it, inserted] = channels_.try_emplace(Key{src, dst, tag});
  if (inserted)
    it->second.large = simgrid::s4u::Mailbox::by_name(fmt::format("tit:{}>{}#{}", src, dst, tag));
  return it->second;
}

simgrid::s4u::Mailbox* World::small_mailbox(Channel& ch, int src, int dst, int tag)
{
  if (ch.small == nullptr) {
    ch.small = simgrid::s4u::Mailbox::by_name(fmt::format("tit:{}>{}#{}:eager", src, dst, tag));
    ch.small->set_receiver(actors_.at(dst));
  }
  return ch.small;
}

void World::set_actor(int rank, simgrid::s4u::ActorPtr actor)
{
  actors_.at(rank) = std::move(actor);
}

std::vector<World::Unreceived> World::unreceived() const
{
  std::vector<Unreceived> out;
  for (auto const& [key, ch] : channels_)
    if (ch.sent > ch.received)
      out.push_back({key.src, key.dst, key.tag, ch.sent - ch.received});
  std::sort(out.begin(), out.end(), [](const Unreceived& a, const Unreceived& b) {
    return std::tie(a.src, a.dst, a.tag) < std::tie(b.src, b.dst, b.tag);
  });
  return out;
}

} // namespace tit::mpi
