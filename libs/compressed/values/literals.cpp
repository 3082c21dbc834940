// `binned:R` files (docs/compressed-format.md, "What it keeps"): value slots whose streams hold one token in every
// value block become literal slots of their signature (hoist_constants), so that no block repeats them.
#include "compressed/values/values.hpp"

#include <map>
#include <optional>
#include <string>

namespace tit::trace::cformat {

void hoist_constants(Part& part)
{
  // per (signature, value slot): the one token of its streams in every block, when there is one
  Meta meta;
  meta.signatures = part.signatures; // as the blocks were written (before any slot becomes a literal)
  // a block decoded at a time, twice (its tokens, then its streams re-encoded)
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::optional<std::string>> constant;
  for (std::size_t b = 0; b < part.blocks.size(); ++b)
    for (const Stream& s : decode_block(part, meta, b)) {
      std::optional<std::string> token;
      bool one = true;
      for (const ValueRun& run : s.runs) {
        if (run.is_int && run.step != 0 && run.count > 1)
          one = false;
        std::string t = run.is_int ? std::to_string(run.first) : run.text;
        one = one && (!token || *token == t);
        token = t;
      }
      auto [it, added] = constant.try_emplace({s.signature, s.slot}, one ? token : std::nullopt);
      if (!added && it->second != token)
        it->second.reset();
      if (!one)
        it->second.reset();
    }
  // those slots become literals; the signature's later value slots take lower ordinals
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> ordinal; // (signature, old ordinal) -> new
  bool any = false;
  for (std::uint32_t sig = 0; sig < part.signatures.size(); ++sig) {
    std::uint32_t old_ordinal = 0, new_ordinal = 0;
    for (Slot& slot : part.signatures[sig].slots) {
      if (slot.kind != Slot::Kind::Value)
        continue;
      auto it = constant.find({sig, old_ordinal});
      if (it != constant.end() && it->second) {
        slot.kind = Slot::Kind::Literal;
        slot.literal = *it->second;
        any = true;
      } else {
        ordinal[{sig, old_ordinal}] = new_ordinal++;
      }
      ++old_ordinal;
    }
  }
  if (!any)
    return;
  std::map<std::string, std::uint32_t> distinct;
  std::vector<std::string> encoded;
  std::vector<std::uint32_t> block_of(part.blocks.size());
  for (std::size_t b = 0; b < part.blocks.size(); ++b) {
    std::vector<Stream> kept;
    for (Stream& s : decode_block(part, meta, b)) {
      auto it = ordinal.find({s.signature, s.slot});
      if (it == ordinal.end())
        continue; // a literal now
      s.slot = it->second;
      kept.push_back(std::move(s));
    }
    std::string bytes = encode_streams(kept);
    auto [d, fresh] = distinct.try_emplace(bytes, static_cast<std::uint32_t>(encoded.size()));
    if (fresh)
      encoded.push_back(std::move(bytes));
    block_of[b] = d->second;
  }
  for (Part::RankPart& r : part.ranks)
    r.block = block_of[r.block];
  part.blocks = std::move(encoded);
}

} // namespace tit::trace::cformat
