// RankCompressor: one rank's actions folded into nested loops over signatures as they arrive (fold/folder.hpp), its
// numbers kept in value streams of runs (values/builders.hpp); the tracer's binary path keys on its records.
#include "compressed/fold/folder.hpp"
#include "compressed/values/builders.hpp"
#include "compressed/values/values.hpp"
#include "trace/reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <unordered_map>

namespace tit::trace::cformat {

using fold_detail::Folder;

/// a == b, comparing 8 bytes at a time without a call (the lines compared are short).
inline bool same_text(std::string_view a, std::string_view b)
{
  std::size_t n = a.size();
  if (n != b.size())
    return false;
  auto word = [](const char* p) {
    std::uint64_t w = 0;
    std::memcpy(&w, p, 8);
    return w;
  };
  if (n < 8) {
    for (std::size_t i = 0; i < n; ++i)
      if (a[i] != b[i])
        return false;
    return true;
  }
  for (std::size_t i = 0; i + 8 < n; i += 8)
    if (word(a.data() + i) != word(b.data() + i))
      return false;
  return word(a.data() + n - 8) == word(b.data() + n - 8); // the last 8 bytes (overlapping the words before)
}

/// A value of an action line as RankCompressor::add_line remembers it: its stream and its token, classified.
struct CachedValue {
  StreamBuilder* builder;
  bool is_int;
  std::int64_t value;
  std::string token;
};

/// An action line RankCompressor::add_line remembers (its text after the rank field is its key).
struct CachedLine {
  std::uint32_t sig = 0;
  std::vector<CachedValue> values;
  const std::string* text = nullptr; ///< its key
  std::string line;                  ///< the whole line as the tracer writes it: "<rank> " and the key
  std::vector<std::uint64_t> record; ///< the tracer's record of it (RankCompressor::add_record), or empty
  CachedLine* next = nullptr;        ///< the remembered line that came after it last time
  std::uint64_t pending = 0;         ///< its occurrences whose values are held back (see add_values)
  std::size_t owned = 0;             ///< how many of its values' streams it owns
  std::uint32_t direct = 0;          ///< its next occurrences that add their values at once (see add_values)
};

/// A tracer's record as the key of the records that stand for remembered lines.
inline std::string_view record_bytes(std::span<const std::uint64_t> record)
{
  return {reinterpret_cast<const char*>(record.data()), record.size_bytes()};
}

inline bool same_record(const std::vector<std::uint64_t>& a, std::span<const std::uint64_t> b)
{
  std::size_t n = a.size();
  if (n != b.size())
    return false;
  std::uint64_t differ = 0; // records are short: every word compared, without a branch per word
  for (std::size_t i = 0; i < n; ++i)
    differ |= a[i] ^ b[i];
  return differ == 0;
}

namespace {

/// Which arguments of an action are partners and which are volumes: the same for every action of one kind, dialect
/// and form (a dialect 1 `wait` without arguments), so computed once per such triple.
struct Roles {
  std::vector<std::size_t> partners;
  std::vector<std::size_t> binned; ///< binned_positions(): the arguments `binned:R` bins
};

} // namespace

// ---- RankCompressor --------------------------------------------------------------------------------------

struct RankCompressor::Impl {
  Impl(int r, int n, const ValueMode& m) : rank(r), rank_count(n), mode(m), rank_prefix(std::to_string(r) + " ") {}
  int rank;
  int rank_count;
  ValueMode mode;
  Tables tables;
  Folder folder{tables};
  Values values;
  Dialect dialect = Dialect::SimGrid;
  bool first = true;
  // reused on every action (no allocation once they have grown)
  std::string key;
  struct SlotDesc {
    Slot::Kind kind;
    std::string_view token;
    std::int64_t offset;
  };
  std::vector<SlotDesc> slots;
  std::vector<std::string_view> value_tokens;
  std::vector<bool> volume;
  std::vector<Roles> roles;       // by (kind, dialect, form)
  std::vector<bool> has_roles;
  std::string rank_prefix; ///< "<rank> ", how the tracer's lines start
  std::unordered_map<std::string, Kind, StringHash, std::equal_to<>> kinds; // add_line: SimGrid names seen

  const Roles& roles_of(const Action& a)
  {
    std::size_t i = (static_cast<std::size_t>(a.kind) * 2 + static_cast<std::size_t>(a.dialect)) * 2 +
                    (a.wait_last_irecv ? 1 : 0);
    if (i >= roles.size()) {
      roles.resize(i + 1);
      has_roles.resize(i + 1, false);
    }
    if (!has_roles[i]) {
      roles[i] = Roles{partner_positions(a), binned_positions(a)};
      has_roles[i] = true;
    }
    return roles[i];
  }

  void add(const Action& a)
  {
    if (first)
      dialect = a.dialect;
    first = false;
    const Roles& r = roles_of(a);
    Tables::key_begin(key, a.name);
    std::string_view rest = a.text;
    detail::next_field(rest); // rank
    detail::next_field(rest); // name
    slots.clear();
    value_tokens.clear();
    volume.clear();
    for (std::size_t i = 0; !rest.empty(); ++i) {
      std::string_view token = detail::next_field(rest);
      std::int64_t v = 0;
      bool is_int = canonical_int(token, v);
      SlotDesc slot{Slot::Kind::Value, token, 0};
      if (is_int && v >= 0 && v < rank_count &&
          std::find(r.partners.begin(), r.partners.end(), i) != r.partners.end()) {
        std::int64_t k = ((v - a.rank) % rank_count + rank_count) % rank_count;
        if (k > rank_count / 2)
          k -= rank_count;
        slot = SlotDesc{Slot::Kind::Relative, {}, k};
      } else if (is_int || detail::parse_double(token)) {
        value_tokens.push_back(token);
        volume.push_back(std::find(r.binned.begin(), r.binned.end(), i) != r.binned.end());
      } else {
        slot.kind = Slot::Kind::Literal;
      }
      Tables::key_slot(key, slot.kind, slot.kind == Slot::Kind::Literal ? token : std::string_view(), slot.offset);
      slots.push_back(slot);
    }
    std::int64_t found = tables.find_signature(key);
    std::uint32_t sig = 0;
    if (found >= 0) {
      sig = static_cast<std::uint32_t>(found);
    } else {
      Signature s;
      s.name = std::string(a.name);
      for (const SlotDesc& d : slots) {
        Slot slot;
        slot.kind = d.kind;
        if (d.kind == Slot::Kind::Literal)
          slot.literal = std::string(d.token);
        slot.offset = d.offset;
        s.slots.push_back(std::move(slot));
      }
      sig = tables.add_signature(key, std::move(s));
    }
    bool bin = mode.kind == ValueMode::Kind::Binned;
    last.sig = sig;
    last.values.clear();
    for (std::size_t j = 0; j < value_tokens.size(); ++j) {
      CachedValue v{&values.builder(sig, static_cast<std::uint32_t>(j)), false, 0,
                    bin && volume[j] ? bin_token(value_tokens[j], mode.bin) : std::string(value_tokens[j])};
      v.is_int = canonical_int(v.token, v.value);
      release(*v.builder);
      v.builder->add_parsed(v.is_int, v.value, v.token);
      last.values.push_back(std::move(v));
    }
    folder.push(sig);
  }

  // add_line's shortcuts (exact and binned values): an action line seen before (its text after the rank field)
  // gives the same signature and value tokens; a `compute <integer>` line has the one compute signature. They skip
  // the classification of the tokens and the signature's lookup, which cost more than the tracer's own work per call.
  // A program repeats its lines in the same order, so each remembered line also remembers the one that followed it:
  // comparing the line with that guess usually spares hashing it.
  static constexpr std::size_t kLineCache = 4096; ///< distinct lines remembered (memory stays bounded)
  std::unordered_map<std::string, CachedLine, StringHash, std::equal_to<>> lines;
  CachedLine last;                  ///< what the last add() did
  CachedLine* previous = nullptr;   ///< the line added last, when remembered (or compute_line)
  CachedLine compute_line;          ///< stands for every `compute <integer>` line in the chain of guesses
  std::int64_t compute_sig = -1;
  StreamBuilder* compute_values = nullptr;

  // add_record's shortcut: a record given with a remembered line before stands for it (the records of one line may be
  // several: only equal records are known to give equal lines). Each remembered line keeps its first record, compared
  // with the record of the line guessed to come next, as add_line compares texts.
  static constexpr std::size_t kRecords = 2 * kLineCache; ///< records remembered (memory stays bounded)
  std::unordered_map<std::string, CachedLine*, StringHash, std::equal_to<>> records;

  /// add_record(): the line `record` stands for, folded as add_line folds a remembered line; false when unknown.
  bool add_record(std::span<const std::uint64_t> record)
  {
    CachedLine* hit = nullptr;
    if (previous != nullptr && previous->next != nullptr && same_record(previous->next->record, record)) {
      hit = previous->next;
    } else if (auto it = records.find(record_bytes(record)); it != records.end()) {
      hit = it->second;
      if (previous != nullptr)
        previous->next = hit;
    } else {
      return false;
    }
    previous = hit;
    add_values(*hit);
    folder.push(hit->sig);
    return true;
  }

  /// After add_line() of the line `record` stands for: `previous` is that line when it is remembered.
  void remember_record(std::span<const std::uint64_t> record)
  {
    CachedLine* line = previous;
    if (line == nullptr || line == &compute_line || records.size() >= kRecords)
      return;
    if (records.emplace(std::string(record_bytes(record)), line).second && line->record.empty())
      line->record.assign(record.begin(), record.end());
  }

  /// add_compute(): the shortcut add_known takes for `compute <volume>` (the volume as a token would give it).
  bool add_compute(std::int64_t volume)
  {
    if (compute_sig < 0 || volume >= kIntLimit || volume <= -kIntLimit)
      return false;
    release(*compute_values);
    compute_values->add_parsed(true, volume, {}); // an integer's token is not read: its value is the run's
    folder.push(static_cast<std::uint32_t>(compute_sig));
    previous = &compute_line;
    return true;
  }

  /// The shortcuts of add_line, for `rest` (the line after its rank field); false when neither applies.
  bool add_known(std::string_view rest)
  {
    std::int64_t v = 0;
    // compute lines are never remembered: looking them up first would only cost a hash
    if (compute_sig >= 0 && !rest.empty() && rest[0] == 'c' && rest.starts_with("compute ") &&
        canonical_int(rest.substr(8), v)) {
      release(*compute_values);
      compute_values->add_parsed(true, v, rest.substr(8));
      folder.push(static_cast<std::uint32_t>(compute_sig));
      previous = &compute_line;
      return true;
    }
    CachedLine* hit = nullptr;
    if (previous != nullptr && previous->next != nullptr && same_text(*previous->next->text, rest)) {
      hit = previous->next;
    } else if (auto it = lines.find(rest); it != lines.end()) {
      hit = &it->second;
      if (previous != nullptr)
        previous->next = hit;
    }
    previous = hit;
    if (hit == nullptr)
      return false;
    add_values(*hit);
    folder.push(hit->sig);
    return true;
  }

  // A remembered line seen again adds the same values. While a line is the only one adding to each of its values'
  // streams (it owns them), its occurrences are only counted; another value for one of those streams first adds the
  // counted ones (each stream gets its values in order; streams are independent), as does finish(). A line that held
  // back a single occurrence when it lost a stream (lines taking the same streams in turn, as a halo's receives from
  // two sides with two tags) adds its values at once for its next kDirect occurrences, then tries again.
  static constexpr std::uint32_t kDirect = 64;

  /// The values of `line` (a remembered line, seen again), added or held back.
  void add_values(CachedLine& line)
  {
    if (line.direct == 0 && line.owned == line.values.size())
      ++line.pending; // the common case, inlined
    else
      add_values_otherwise(line);
  }

  void add_values_otherwise(CachedLine& line)
  {
    if (line.direct > 0) {
      --line.direct;
      for (const CachedValue& v : line.values) {
        release(*v.builder);
        v.builder->add_parsed(v.is_int, v.value, v.token);
      }
      return;
    }
    if (line.owned != line.values.size())
      take_streams(line);
    ++line.pending;
  }

  /// The line takes the streams of its values it does not own (their owners first add what they held back).
  void take_streams(CachedLine& line)
  {
    for (const CachedValue& v : line.values) {
      if (v.builder->owner != &line) {
        release(*v.builder);
        v.builder->owner = &line;
        ++line.owned;
      }
    }
  }

  /// The stream's owner, if any, adds its held-back values and gives the stream up.
  static void release(StreamBuilder& b)
  {
    if (CachedLine* o = b.owner) {
      if (o->pending <= 1)
        o->direct = kDirect;
      flush(*o);
      --o->owned;
      b.owner = nullptr;
    }
  }

  static void flush(CachedLine& line)
  {
    if (line.pending == 0)
      return;
    for (const CachedValue& v : line.values)
      v.builder->add_repeated(v.is_int, v.value, v.token, line.pending);
    line.pending = 0;
  }

  /// Adds every value held back (before the streams are encoded).
  void flush_all()
  {
    for (auto& [text, line] : lines)
      flush(line);
  }

  /// After add() of a line whose shortcut did not apply: remembers it.
  void remember(std::string_view rest, Kind kind)
  {
    if (kind == Kind::Compute) {
      std::int64_t v = 0;
      if (compute_sig < 0 && mode.kind == ValueMode::Kind::Exact && last.values.size() == 1 &&
          canonical_int(last.values[0].token, v)) {
        compute_sig = last.sig;
        compute_values = last.values[0].builder;
      }
      previous = compute_sig >= 0 ? &compute_line : nullptr;
      return; // compute volumes vary: their lines are not remembered
    }
    previous = nullptr;
    if (lines.size() < kLineCache) {
      auto [it, added] = lines.emplace(std::string(rest), last);
      it->second.text = &it->first;
      it->second.line = rank_prefix + it->first;
      previous = &it->second;
    }
  }
};

RankCompressor::RankCompressor(int rank, int rank_count, const ValueMode& mode)
    : impl_(std::make_unique<Impl>(rank, rank_count, mode))
{
  if (mode.kind == ValueMode::Kind::Stats)
    throw TraceError("error: value mode 'stats' needs every rank's values: fold them exact, then pool_stats()");
}

RankCompressor::~RankCompressor() = default;

void RankCompressor::add(const Action& a)
{
  impl_->add(a);
  ++actions_;
}

void RankCompressor::add_line(std::string_view line)
{
  Impl& m = *impl_;
  // The common case first: the line the last one's successor guesses, as the tracer writes it ("<rank> " and the
  // remembered text: a remembered text has no blank at either end, so trimming and cutting the rank field give it).
  if (CachedLine* guess = m.previous != nullptr ? m.previous->next : nullptr) {
    if (same_text(line, guess->line)) {
      m.previous = guess;
      m.add_values(*guess);
      m.folder.push(guess->sig);
      ++actions_;
      return;
    }
  }
  std::string_view text = line;
  std::string_view rest;
  const std::string& prefix = impl_->rank_prefix;
  auto blank = [](char c) { return c == ' ' || c == '\t'; };
  std::size_t n = prefix.size();
  if (line.size() > n && same_text(line.substr(0, n), prefix) && !blank(line[n]) && !blank(line.back())) {
    rest = std::string_view(line.data() + n, line.size() - n); // the tracer's lines: what trimming and cutting the rank
                                                               // field give
  } else {
    text = detail::trim(line);
    rest = text;
    detail::next_field(rest);
  }
  std::string_view after_rank = rest;
  bool shortcuts = !impl_->first;
  if (shortcuts && impl_->add_known(after_rank)) {
    ++actions_;
    return;
  }
  Action a;
  a.dialect = Dialect::SimGrid;
  a.text = text;
  a.rank = impl_->rank;
  a.name = detail::next_field(rest);
  auto it = impl_->kinds.find(a.name);
  if (it == impl_->kinds.end()) {
    const detail::ActionSpec* spec = detail::find_action(Dialect::SimGrid, a.name);
    if (spec == nullptr)
      throw TraceError(fmt::format("error: unknown action '{}' in line '{}'", a.name, a.text));
    it = impl_->kinds.emplace(std::string(a.name), spec->kind).first;
  }
  a.kind = it->second;
  add(a);
  impl_->remember(after_rank, a.kind);
}

bool RankCompressor::add_record(std::span<const std::uint64_t> record)
{
  if (!impl_->add_record(record))
    return false;
  ++actions_;
  return true;
}

void RankCompressor::add_line(std::string_view line, std::span<const std::uint64_t> record)
{
  add_line(line);
  impl_->remember_record(record);
}

bool RankCompressor::add_compute(std::int64_t volume)
{
  if (!impl_->add_compute(volume))
    return false;
  ++actions_;
  return true;
}

std::uint64_t RankCompressor::structure_items() const
{
  std::uint64_t n = impl_->folder.size();
  for (const auto& b : impl_->tables.bodies())
    n += b.size();
  return n;
}

Part RankCompressor::finish()
{
  Impl& m = *impl_;
  Part p;
  std::uint32_t root = m.tables.body_of(m.folder.items());
  m.flush_all();
  p.blocks.push_back(m.values.encode());
  m.tables.move_into(p.signatures, p.nodes, p.bodies);
  p.ranks.push_back(Part::RankPart{m.rank, root, m.dialect, 0});
  impl_.reset();
  return p;
}

} // namespace tit::trace::cformat
