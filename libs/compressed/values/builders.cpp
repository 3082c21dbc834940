// Value streams built from tokens (tools that make a compressed trace from a model, and pool_stats).
#include "compressed/values/builders.hpp"

#include <algorithm>

namespace tit::trace::cformat {

void ValueStreams::add(std::uint32_t signature, std::uint32_t slot, std::string_view token)
{
  auto [it, added] = index_.try_emplace({signature, slot}, streams_.size());
  if (added)
    streams_.push_back(Stream{signature, slot, {}, {}});
  std::vector<ValueRun>& runs = streams_[it->second].runs;
  std::int64_t v = 0;
  bool is_int = canonical_int(token, v);
  if (runs.empty() || !extend_run(runs.back(), is_int, v, token))
    runs.push_back(new_run(is_int, v, token));
}

struct ValueBlock::Impl {
  Values values;
};
ValueBlock::ValueBlock() : impl_(std::make_unique<Impl>()) {}
ValueBlock::~ValueBlock() = default;
void ValueBlock::add(std::uint32_t signature, std::uint32_t slot, std::string_view token)
{
  impl_->values.add(signature, slot, token);
}
std::string ValueBlock::encode()
{
  return impl_->values.encode();
}

std::vector<Stream> ValueStreams::take()
{
  std::sort(streams_.begin(), streams_.end(), [](const Stream& a, const Stream& b) {
    return std::pair(a.signature, a.slot) < std::pair(b.signature, b.slot);
  });
  for (Stream& s : streams_)
    find_repeats(s);
  return std::move(streams_);
}

} // namespace tit::trace::cformat
