// From a trimmed line to a typed action: fields, name lookup, argument readers.
#include "trace/reader.hpp"

#include <fmt/format.h>

#include <cctype>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <utility>

namespace tit::trace::detail {

const std::vector<ActionSpec>& action_specs(Dialect dialect)
{
  switch (dialect) {
  case Dialect::Thesis:
    return thesis_action_specs();
  case Dialect::Pre320:
    return pre320_action_specs();
  default:
    return simgrid_action_specs();
  }
}

const ActionSpec* find_action(Dialect dialect, std::string_view name)
{
  for (const ActionSpec& spec : action_specs(dialect))
    if (spec.name.size() == name.size() && std::memcmp(spec.name.data(), name.data(), name.size()) == 0)
      return &spec;
  return nullptr;
}

// ---- argument readers ----------------------------------------------------------------------------

int int_arg(const Action& at, std::size_t i, std::string_view what)
{
  std::optional<int> v = parse_int(at.args[i]);
  if (!v)
    fail(at, fmt::format("'{}' {} '{}' is not an integer", at.name, what, at.args[i]));
  return *v;
}

namespace {

constexpr int kNoIndex = -1;

// `what`, or "what[index]" for an element of a vector argument
std::string field_name(std::string_view what, int index)
{
  return index == kNoIndex ? std::string(what) : fmt::format("{}[{}]", what, index);
}

double number_at(const Action& at, std::size_t i, std::string_view what, int index, bool non_negative)
{
  std::optional<double> v = parse_double(at.args[i]);
  if (!v)
    fail(at, fmt::format("'{}' {} '{}' is not a number", at.name, field_name(what, index), at.args[i]));
  double count = std::trunc(*v); // as SimGrid: trunc(strtod(...))
  if (std::fabs(count) >= 9223372036854775808.0)
    fail(at, fmt::format("'{}' {} '{}' is out of range", at.name, field_name(what, index), at.args[i]));
  if (non_negative && count < 0)
    fail(at, fmt::format("'{}' {} '{}' is negative", at.name, field_name(what, index), at.args[i]));
  return count + 0.0; // -0.5 truncates to -0: make it 0
}

} // namespace

double count_arg(const Action& at, std::size_t i, std::string_view what)
{
  return number_at(at, i, what, kNoIndex, false);
}

double size_arg(const Action& at, std::size_t i, std::string_view what)
{
  return number_at(at, i, what, kNoIndex, true);
}

void sizes_arg(const Action& at, std::size_t first, int n, std::string_view what, std::vector<double>& out)
{
  out.resize(static_cast<std::size_t>(n)); // no allocation once the vector has grown to n
  for (int k = 0; k < n; ++k)
    out[static_cast<std::size_t>(k)] = number_at(at, first + static_cast<std::size_t>(k), what, k, true);
}

void numbers_arg(const Action& at, std::size_t first, int n, std::string_view what)
{
  for (int k = 0; k < n; ++k)
    number_at(at, first + static_cast<std::size_t>(k), what, k, false);
}

int root_arg(const Action& at, std::size_t i, int n)
{
  int root = int_arg(at, i, "root");
  if (root < 0 || (n > 0 && root >= n)) {
    std::string range = n > 0 ? fmt::format(" (0..{})", n - 1) : "";
    fail(at, fmt::format("'{}' root {} is not a rank of the communicator{}", at.name, root, range));
  }
  return root;
}

int communicator_size_of(const Action& at, const RankState& state)
{
  if (at.comm == 0)
    return state.rank_count;
  auto it = state.comm_sizes.find(at.comm);
  return it == state.comm_sizes.end() ? 0 : it->second;
}

int known_size(const Action& at, int n)
{
  if (n <= 0 && at.comm != 0)
    fail(at, fmt::format("'{}' needs the size of communicator {}, which the trace does not give before this line "
                         "(give it as comm_split's fifth argument, or with 'comm_size <n> comm={}')",
                         at.name, at.comm, at.comm));
  if (n <= 0)
    fail(at, fmt::format("'{}' needs the communicator size, which is unknown here (no rank count{})", at.name,
                         at.dialect == Dialect::Thesis ? ", no comm_size line" : ""));
  return n;
}

double amount_arg(const Action& at, std::size_t i, std::string_view what)
{
  std::optional<double> v = parse_double(at.args[i]);
  if (!v)
    fail(at, fmt::format("'{}' {} '{}' is not a number", at.name, what, at.args[i]));
  if (*v < 0)
    fail(at, fmt::format("'{}' {} '{}' is negative", at.name, what, at.args[i]));
  return *v;
}

int datatype_arg(const Action& at, std::size_t i, std::string_view what)
{
  int id = int_arg(at, i, what);
  int size = datatype_size(id);
  if (size < 0)
    fail(at, fmt::format("'{}' {} '{}' is not a known datatype id (known ids: -1 and 0..59)", at.name,
                         what, at.args[i]));
  return size;
}

int rank_arg(const Action& at, std::size_t i, std::string_view what, const RankState& state,
             bool any_source_ok)
{
  int rank = int_arg(at, i, what);
  if (any_source_ok && rank == kAnySource)
    return rank;
  if (rank < 0 || (state.rank_count > 0 && rank >= state.rank_count)) {
    std::string range = state.rank_count > 0 ? fmt::format(" (ranks 0..{})", state.rank_count - 1) : "";
    fail(at, fmt::format("'{}' {} {} is not a rank of this trace set{}", at.name, what, rank, range));
  }
  return rank;
}

namespace {

// `usage` with each " x n>" or " x n]" spelt with the communicator size n (when known)
std::string usage_for(std::string_view usage, int n)
{
  std::string out;
  constexpr std::string_view placeholder = " x n";
  for (std::size_t i = 0; i < usage.size();) {
    std::size_t after = i + placeholder.size();
    if (n > 0 && usage.substr(i, placeholder.size()) == placeholder && after < usage.size() &&
        (usage[after] == '>' || usage[after] == ']')) {
      out += fmt::format(" x {}", n);
      i = after;
    } else {
      out += usage[i++];
    }
  }
  return out;
}

std::string arg_count_message(const Action& at, const ActionSpec& spec, int n = 0)
{
  std::size_t count = at.args.size();
  std::string got = fmt::format("got {} field{}", count, count == 1 ? "" : "s");
  if (spec.max_args == 0)
    return fmt::format("'{}' takes no arguments, {}", at.name, got);
  return fmt::format("'{}' needs {}, {}", at.name, usage_for(spec.usage, n), got);
}

} // namespace

void fail_arg_count(const Action& at, const ActionSpec& spec) { fail(at, arg_count_message(at, spec)); }

void fail_arg_count(const Action& at, const ActionSpec& spec, int n) { fail(at, arg_count_message(at, spec, n)); }

const ActionSpec& spec_of(const Action& at)
{
  const ActionSpec* spec = find_action(at.dialect, at.name);
  if (spec == nullptr) // interpret() found it before calling the spec's parse function
    throw std::logic_error(fmt::format("no spec for action '{}'", at.name));
  return *spec;
}

// ---- the parser -----------------------------------------------------------------------------------

ActionParser::ActionParser(const std::string& file, DialectGuess dialect, int rank_count)
    : file_(file), dialect_(std::move(dialect))
{
  state_.rank_count = rank_count;
}

void ActionParser::split(std::string_view text, std::uint64_t line, Action& out) const
{
  out.text = text;
  out.file = &file_;
  out.line = line;
  out.dialect = dialect_.dialect;
  std::string_view rest = text;
  out.rank = rank_field(file_, line, text, next_field(rest));
  out.name = next_field(rest);
  if (out.name.empty())
    fail(out, "the line holds a rank but no action; expected <rank> <action> [arguments]");
  out.args.clear();
  while (!rest.empty())
    out.args.push_back(next_field(rest));
  reset_typed(out);
}

void ActionParser::split_fields(std::string_view text, std::uint64_t line, int rank, std::string_view name,
                                Action& out) const
{
  out.text = text;
  out.file = &file_;
  out.line = line;
  out.dialect = dialect_.dialect;
  out.rank = rank;
  out.name = name;
  reset_typed(out);
}

void ActionParser::reset_typed(Action& out) const
{
  out.comm = 0;
  out.new_comm = -1;
  out.comm_args = false;
  out.color = out.key = out.new_size = 0;
  out.group.clear();
  // tit-replay's extension: a last `comm=<handle>` names the communicator of the line.
  if (!out.args.empty() && out.args.back().starts_with("comm=")) {
    std::string_view handle = out.args.back().substr(5);
    std::optional<int> h = parse_int(handle);
    if (!h || *h < 0)
      fail(out, fmt::format("communicator '{}' is not a communicator handle (expected comm=<h>, h >= 0)",
                            out.args.back()));
    out.comm = static_cast<int>(*h);
    out.args.pop_back();
  }
  out.partner = out.partner2 = out.src = out.dst = -1;
  out.tag = 0;
  out.bytes = out.bytes2 = out.amount = 0;
  out.wait_last_irecv = false;
  out.root = 0;
  out.datatype_size = 1;
  out.blocking = Kind::Init;
  out.send_counts.clear(); // clear() keeps the capacity: no allocation per line
  out.recv_counts.clear();
}

void ActionParser::interpret(Action& out)
{
  const ActionSpec* spec = nullptr;
  interpret(out, spec);
}

void ActionParser::interpret(Action& out, const ActionSpec*& spec)
{
  if (spec == nullptr)
    spec = find_action(dialect_.dialect, out.name);
  if (spec == nullptr)
    fail_unknown(out);
  std::size_t n = out.args.size();
  if (n < spec->min_args || (spec->max_args != kAnyArgs && n > spec->max_args)) {
    std::string what = arg_count_message(out, *spec);
    std::optional<Dialect> other = dialect_.dialect == Dialect::Pre320 ? std::nullopt : line_dialect(out.name, n);
    if (other && *other != dialect_.dialect) // say why the other dialect's form is refused
      what += fmt::format(" (the {} form{})", dialect_name(*other), mixing_hint());
    fail(out, what);
  }
  out.kind = spec->kind;
  spec->parse(out, state_);
}

std::string ActionParser::mixing_hint() const
{
  if (dialect_.dialect == Dialect::Pre320)
    return fmt::format(", but this file is read as {}, as asked", dialect_name(dialect_.dialect));
  if (dialect_.line == 0)
    return fmt::format(", but this file is in {}", dialect_name(dialect_.dialect));
  return fmt::format(", but line {} ('{}') shows that this file is in {}", dialect_.line, dialect_.name,
                     dialect_name(dialect_.dialect));
}

namespace {

bool same_ignoring_case(std::string_view a, std::string_view b)
{
  if (a.size() != b.size())
    return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  return true;
}

} // namespace

void ActionParser::fail_unknown(const Action& at) const
{
  Dialect other = dialect_.dialect == Dialect::Thesis ? Dialect::SimGrid : Dialect::Thesis;
  if (dialect_.dialect == Dialect::Pre320)
    other = Dialect::SimGrid; // pre-3.20 has dialect 1's names: a name of dialect 2 is the likely mix-up
  if (find_action(other, at.name) != nullptr)
    fail(at, fmt::format("'{}' is an action of {}{}; one file cannot mix the two dialects", at.name,
                         dialect_name(other), mixing_hint()));
  std::string known;
  std::string_view suggestion;
  for (const ActionSpec& spec : action_specs(dialect_.dialect)) {
    known += known.empty() ? "" : ", ";
    known += spec.name;
    if (same_ignoring_case(spec.name, at.name))
      suggestion = spec.name;
  }
  std::string hint = suggestion.empty() ? "" : fmt::format("; did you mean '{}'?", suggestion);
  fail(at, fmt::format("unknown action '{}'; known actions: {}{}", at.name, known, hint));
}

} // namespace tit::trace::detail
