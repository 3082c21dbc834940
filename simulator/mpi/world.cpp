#include "mpi/world.hpp"

#include <fmt/core.h>
#include <simgrid/s4u/Actor.hpp>

#include <algorithm>

namespace tit::mpi {

World::World(model::MpiParams params, int rank_count, int job)
    : params_(std::move(params)), rank_count_(rank_count), incoming_(static_cast<std::size_t>(rank_count)), job_(job),
      progress_(static_cast<std::size_t>(rank_count))
{
}

void World::set_activity(int rank, Activity a)
{
  auto& p = progress_.at(static_cast<std::size_t>(rank));
  p.activity = a;
  p.waited.clear();
}

void World::set_activity(int rank, Activity a, const Request* waited)
{
  auto& p = progress_.at(static_cast<std::size_t>(rank));
  p.activity = a;
  p.waited.assign(1, waited);
}

bool World::others_can_progress(int rank) const
{
  for (std::size_t r = 0; r < progress_.size(); ++r) {
    if (static_cast<int>(r) == rank)
      continue;
    auto const& p = progress_[r];
    switch (p.activity) {
      case Activity::Running:
        return true;
      case Activity::Waiting:
        for (const Request* req : p.waited)
          if (req->done || req->matched_at >= 0)
            return true;
        break;
      case Activity::Probing:
      case Activity::Finished:
        break;
    }
  }
  return false;
}

namespace {
/// Mailboxes made ahead: enough for the channels of most applications (a few neighbours and tags per rank);
/// past that, channels get theirs on first use.
constexpr std::size_t kSpareLargePerRank = 8;
constexpr std::size_t kSpareLargeBase = 1024;
constexpr std::size_t kSpareSmallPerRank = 16;
} // namespace

simgrid::s4u::Mailbox* World::new_mailbox()
{
  // Named per job: every job has mailboxes of its own (by_name returns the same mailbox for the same name).
  return simgrid::s4u::Mailbox::by_name(fmt::format("tit:{}:{}", job_, mailbox_names_++));
}

void World::prepare(std::vector<simgrid::s4u::ActorPtr> actors)
{
  actors_ = std::move(actors);
  auto ranks = actors_.size();
  for (std::size_t i = 0; i < kSpareLargeBase + kSpareLargePerRank * ranks; ++i)
    spare_large_.push_back(new_mailbox());
  spare_small_.resize(ranks);
  for (std::size_t r = 0; r < ranks; ++r) {
    eager_locks_.push_back(simgrid::s4u::Mutex::create());
    bind_signals_.push_back(simgrid::s4u::Semaphore::create(0));
    any_mailboxes_.push_back(new_mailbox());
    any_mailboxes_.back()->set_receiver(actors_[r]);
    if (params_.async_small_thresh <= 0)
      continue;
    for (std::size_t i = 0; i < kSpareSmallPerRank; ++i) {
      auto* mailbox = new_mailbox();
      mailbox->set_receiver(actors_[r]);
      spare_small_[r].push_back(mailbox);
    }
  }
}

World::Channel& World::channel(const trace::MessageKey& key)
{
  auto [it, inserted] = channels_.try_emplace(key);
  if (inserted) {
    Channel& ch = it->second;
    ch.src = key.src;
    ch.dst = key.dst;
    ch.match = {key.comm, key.tag};
    incoming_.at(static_cast<std::size_t>(key.dst)).push_back(&ch);
  }
  return it->second;
}

const std::vector<const World::Channel*>& World::channels_to(int dst) const
{
  return incoming_.at(static_cast<std::size_t>(dst));
}

// Past the spare mailboxes, Mailbox::by_name and set_receiver are simcalls: the calling actor yields inside
// them and other ranks may run meanwhile, so a mailbox is given to a channel only once it exists.
simgrid::s4u::Mailbox* World::large_mailbox(Channel& ch)
{
  if (ch.large != nullptr)
    return ch.large;
  if (not spare_large_.empty()) {
    ch.large = spare_large_.back();
    spare_large_.pop_back();
    return ch.large;
  }
  auto* mailbox = new_mailbox(); // may yield
  if (ch.large == nullptr)
    ch.large = mailbox;
  else
    spare_large_.push_back(mailbox);
  return ch.large;
}

void World::post_done(Channel& ch)
{
  ch.in_flight--;
  if (ch.in_flight != 0 || not ch.sends_large.empty() || not ch.recvs_large.empty() || not ch.sends_small.empty() ||
      not ch.recvs_small.empty())
    return;
  if (ch.large != nullptr) {
    spare_large_.push_back(ch.large);
    ch.large = nullptr;
  }
  if (ch.small != nullptr) { // its permanent receiver is ch.dst: it can serve only that rank's channels
    spare_small_.at(static_cast<std::size_t>(ch.dst)).push_back(ch.small);
    ch.small = nullptr;
  }
}

simgrid::s4u::Mailbox* World::small_mailbox(Channel& ch)
{
  if (ch.small == nullptr) {
    int dst = ch.dst;
    auto& spare = spare_small_.at(dst);
    simgrid::s4u::Mailbox* mailbox = nullptr;
    if (not spare.empty()) {
      mailbox = spare.back();
      spare.pop_back();
    } else {
      mailbox = new_mailbox();
      mailbox->set_receiver(actors_.at(dst));
    }
    if (ch.small == nullptr)
      ch.small = mailbox;
  }
  return ch.small;
}

std::vector<World::Unreceived> World::unreceived() const
{
  std::vector<Unreceived> out;
  for (auto const& [key, ch] : channels_)
    if (ch.sent > ch.received)
      out.push_back({key, ch.sent - ch.received});
  std::sort(out.begin(), out.end(), [](const Unreceived& a, const Unreceived& b) {
    return std::tie(a.key.src, a.key.dst, a.key.comm, a.key.tag) < std::tie(b.key.src, b.key.dst, b.key.comm, b.key.tag);
  });
  return out;
}

} // namespace tit::mpi
