// `stats` folding: one compute per gap between non-compute actions (GapNormaliser).
#include "compressed/fold/fold.hpp"
#include "compressed/common/bytes.hpp"
#include "trace/reader.hpp"

#include <fmt/format.h>

namespace tit::trace::cformat {

void GapNormaliser::add(const Action& a)
{
  rank_ = a.rank;
  dialect_ = a.dialect;
  if (a.kind == Kind::Compute) {
    std::string_view rest = a.text;
    detail::next_field(rest); // rank
    detail::next_field(rest); // name
    std::string_view token = detail::next_field(rest);
    std::int64_t v = 0;
    bool is_int = canonical_int(token, v);
    if (!pending_)
      token_ = std::string(token);
    else
      token_.clear(); // a sum: formatted at flush
    integer_ = (pending_ ? integer_ : true) && is_int &&
               !__builtin_add_overflow(pending_ ? int_sum_ : 0, v, &int_sum_);
    sum_ = (pending_ ? sum_ : 0) + a.amount;
    pending_ = true;
    return;
  }
  flush(seen_separator_ && zeros_);
  seen_separator_ = true;
  out_.add(a);
}

void GapNormaliser::flush(bool gap)
{
  if (!pending_ && !gap)
    return;
  std::string_view volume = !pending_ ? std::string_view("0") : !token_.empty() ? std::string_view(token_) : "";
  std::string sum;
  if (pending_ && token_.empty()) {
    sum = integer_ ? fmt::format("{}", int_sum_) : fmt::format("{}", sum_);
    volume = sum;
  }
  line_ = fmt::format("{} compute {}", rank_, volume);
  Action c;
  c.kind = Kind::Compute;
  c.dialect = dialect_;
  c.rank = rank_;
  c.text = line_;
  c.name = std::string_view(line_).substr(line_.find(' ') + 1, 7);
  c.amount = pending_ ? sum_ : 0;
  out_.add(c);
  pending_ = false;
}

} // namespace tit::trace::cformat
