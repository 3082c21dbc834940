#include "mpi/world.hpp"

#include <fmt/core.h>
#include <simgrid/s4u/Actor.hpp>

#include <algorithm>

namespace tit::mpi {

World::World(model::MpiParams params, int rank_count)
    : params_(std::move(params)), rank_count_(rank_count), actors_(rank_count)
{
}

// Mailbox::by_name and set_receiver are simcalls: the calling actor yields inside them and other ranks
// may run meanwhile, so a channel is published only once its mailbox exists.
World::Channel& World::channel(int src, int dst, int tag)
{
  Key key{src, dst, tag};
  if (auto it = channels_.find(key); it != channels_.end())
    return it->second;
  auto* mailbox = simgrid::s4u::Mailbox::by_name(fmt::format("tit:{}>{}#{}", src, dst, tag));
  auto [it, inserted] = channels_.try_emplace(key);
  if (inserted)
    it->second.large = mailbox;
  return it->second;
}

simgrid::s4u::Mailbox* World::small_mailbox(Channel& ch, int src, int dst, int tag)
{
  if (ch.small == nullptr) {
    auto* mailbox = simgrid::s4u::Mailbox::by_name(fmt::format("tit:{}>{}#{}:eager", src, dst, tag));
    mailbox->set_receiver(actors_.at(dst));
    ch.small = mailbox;
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
