#include "tracer.hpp"
#include "untraced.hpp"

#include "compressed/compressed.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <new>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

namespace tit::tracer {

Tracer the_tracer;

Tracer::~Tracer() = default;

// ---------------------------------------------------------------------------------------------
// Lines

void TextLine::comm(int comm_handle)
{
  if (comm_handle == -2) {
    append(" comm=unknown");
  } else {
    char buf[16];
    auto r = std::to_chars(buf, buf + sizeof buf, comm_handle);
    append(" comm=");
    append(std::string_view(buf, static_cast<std::size_t>(r.ptr - buf)));
  }
}

void Line::grow()
{
  auto bigger = std::make_unique<std::uint64_t[]>(2 * capacity_);
  std::copy(words_.get(), words_.get() + n_, bigger.get());
  words_ = std::move(bigger);
  capacity_ *= 2;
}

// (flattened: std::to_chars inlined, as it was when the wrappers formatted their lines themselves; out of line it
// costs about 20 instructions more a number)
[[gnu::flatten]] void Line::format(TextLine& text, std::string_view prefix, int comm_handle) const
{
  text.reset(prefix);
  text.word(name_);
  for (std::size_t i = 1; i < n_; ++i)
    text.num(static_cast<long long>(words_[i]));
  text.end(comm_handle);
}

Line& Tracer::line(std::string_view action)
{
  line_.reset(action);
  action_ = action.data();
  return line_;
}

void Tracer::end_line(int comm_handle)
{
  if (comm_handle == -2 && !unknown_comm_noted_) { // said once, before the first such line
    unknown_comm_noted_ = true;
    if (config.text)
      trace.append("# tit-trace: a communicator not created through a traced call is used; its lines end "
                   "with comm=unknown\n");
  }
  write_line(comm_handle);
  if (config.timings)
    timing_row(trace.lines(), action_, enter_wall, Meter::now());
}

void Tracer::write_line(int comm_handle)
{
  if (config.text) {
    line_.format(text_, rank_prefix_, comm_handle);
    trace.append_line(text_.view());
  }
  if (compressor_)
    compress_line(comm_handle);
}

void Tracer::compress_line(int comm_handle)
{
  try {
    if (join_computes_) {
      if (action_ == name_of(Kind::Compute)) { // held until the next action: consecutive ones are summed
        long long volume = line_.first();
        compute_sum_integer_ = (compute_pending_ ? compute_sum_integer_ : true) &&
                               !__builtin_add_overflow(compute_pending_ ? compute_sum_ : 0, volume, &compute_sum_);
        compute_sum_real_ = (compute_pending_ ? compute_sum_real_ : 0) + static_cast<double>(volume);
        compute_pending_ = true;
        return;
      }
      flush_compute();
    }
    std::span<const std::uint64_t> record = line_.record(comm_handle);
    // an action seen before is folded from its record alone; a compute from its volume
    bool folded = action_ == name_of(Kind::Compute) ? compressor_->add_compute(line_.first())
                                                     : compressor_->add_record(record);
    if (folded)
      return;
    if (!config.text)
      line_.format(text_, rank_prefix_, comm_handle);
    std::string_view text = text_.view();
    compressor_->add_line(text.substr(0, text.size() - 1), record);
  } catch (const trace::TraceError& e) { // a line of ours the format does not know: a bug, said as such
    fatal(std::string("cannot compress the trace: ") + e.what());
  } catch (const std::bad_alloc&) {
    fatal("cannot compress the trace: out of memory (TIT_TRACE_FORMAT=text writes per-rank files as it goes)");
  }
}

void Tracer::flush_compute()
{
  if (!compute_pending_)
    return;
  compute_pending_ = false;
  if (!compute_sum_integer_) { // formatted as tit-trace compress formats such a sum
    compressor_->add_line(fmt::format("{} compute {}", rank, compute_sum_real_));
    return;
  }
  if (compressor_->add_compute(compute_sum_)) // as compress_line folds a compute: by its volume when it can
    return;
  char text[64];
  int n = std::snprintf(text, sizeof text, "%d compute %lld", rank, compute_sum_);
  compressor_->add_line(std::string_view(text, static_cast<std::size_t>(n)));
}

void Tracer::timing_row(long long line, const char* action, double start, double end)
{
  row_.clear();
  char buf[64];
  auto add = [&](auto v, bool last) {
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    row_.append(buf, r.ptr);
    row_ += last ? '\n' : ',';
  };
  add(line, false);
  std::string_view a(action);
  row_.append(a.substr(0, a.find(' ')));
  row_ += ',';
  add(start - t0, false);
  add(end - t0, true);
  timings.append(row_);
}

// ---------------------------------------------------------------------------------------------
// Entry and exit of a wrapper

bool Tracer::enter()
{
  if (!active || depth++ > 0)
    return false;
  std::int64_t counts = meter.read() - last_exit;
  double burst = static_cast<double>(counts) * meter.volume_per_count();
  if (config.timings)
    enter_wall = Meter::now();
  // With no threshold (TIT_TRACE_MIN_BURST=0) every gap between two MPI calls gets its compute: the thread ran
  // the program's code there, so a reading of 0 (the CPU clock's correction after a context switch, see
  // SwitchClock::cpu_ns) is written as 1, the clock's resolution, rather than left out. Without that, which gaps
  // have a compute would depend on the machine's scheduling, not on the program (docs/extrapolation.md#the-corpus).
  if (burst >= min_volume && (burst > 0 || min_volume == 0)) {
    line(name_of(Kind::Compute)).num(std::max(1LL, static_cast<long long>(burst + 0.5)));
    write_line(0);
    if (config.timings)
      timing_row(trace.lines(), name_of(Kind::Compute), last_exit_wall, enter_wall);
  }
  return true;
}

void Tracer::leave(bool traced)
{
  if (!traced) {
    if (depth > 0)
      --depth;
    return;
  }
  --depth;
  if (!active)
    return;
  if (config.timings)
    last_exit_wall = Meter::now();
  last_exit = meter.read();
}

// ---------------------------------------------------------------------------------------------
// Datatypes

namespace {

// The trace format's datatype ids (as SimGrid 3.32 numbers them) with the sizes its readers use.
struct KnownType {
  MPI_Datatype type;
  int id;
  int size;
};

} // namespace

void Tracer::init_types()
{
  // Optional types (Fortran, C++ and some fixed-size ones) are listed only where mpi.h defines them.
  // Sizes from the trace format's one datatype table (trace/action.hpp, constexpr: nothing at run time).
#define TIT_TYPE(t, id) {t, id, trace::datatype_size(id)},
  const KnownType known[] = {
      TIT_TYPE(MPI_DOUBLE, 0) TIT_TYPE(MPI_INT, 1) TIT_TYPE(MPI_CHAR, 2) TIT_TYPE(MPI_SHORT, 3)
      TIT_TYPE(MPI_LONG, 4) TIT_TYPE(MPI_FLOAT, 5) TIT_TYPE(MPI_BYTE, 6) TIT_TYPE(MPI_LONG_LONG, 7)
      TIT_TYPE(MPI_SIGNED_CHAR, 8) TIT_TYPE(MPI_UNSIGNED_CHAR, 9) TIT_TYPE(MPI_UNSIGNED_SHORT, 10)
      TIT_TYPE(MPI_UNSIGNED, 11) TIT_TYPE(MPI_UNSIGNED_LONG, 12) TIT_TYPE(MPI_UNSIGNED_LONG_LONG, 13)
      TIT_TYPE(MPI_LONG_DOUBLE, 14) TIT_TYPE(MPI_WCHAR, 15) TIT_TYPE(MPI_C_BOOL, 16)
      TIT_TYPE(MPI_INT8_T, 17) TIT_TYPE(MPI_INT16_T, 18) TIT_TYPE(MPI_INT32_T, 19)
      TIT_TYPE(MPI_INT64_T, 20) TIT_TYPE(MPI_UINT8_T, 21) TIT_TYPE(MPI_UINT16_T, 22)
      TIT_TYPE(MPI_UINT32_T, 23) TIT_TYPE(MPI_UINT64_T, 24) TIT_TYPE(MPI_C_FLOAT_COMPLEX, 25)
      TIT_TYPE(MPI_C_DOUBLE_COMPLEX, 26) TIT_TYPE(MPI_C_LONG_DOUBLE_COMPLEX, 27) TIT_TYPE(MPI_AINT, 28)
      TIT_TYPE(MPI_OFFSET, 29) TIT_TYPE(MPI_FLOAT_INT, 30) TIT_TYPE(MPI_LONG_INT, 31)
      TIT_TYPE(MPI_DOUBLE_INT, 32) TIT_TYPE(MPI_SHORT_INT, 33) TIT_TYPE(MPI_2INT, 34)
      TIT_TYPE(MPI_LONG_DOUBLE_INT, 50) TIT_TYPE(MPI_PACKED, 57) TIT_TYPE(MPI_COUNT, 59)
#ifdef MPI_REAL
      TIT_TYPE(MPI_REAL, 38)
#endif
#ifdef MPI_REAL4
      TIT_TYPE(MPI_REAL4, 39)
#endif
#ifdef MPI_REAL8
      TIT_TYPE(MPI_REAL8, 40)
#endif
#ifdef MPI_REAL16
      TIT_TYPE(MPI_REAL16, 41)
#endif
#ifdef MPI_COMPLEX8
      TIT_TYPE(MPI_COMPLEX8, 42)
#endif
#ifdef MPI_COMPLEX16
      TIT_TYPE(MPI_COMPLEX16, 43)
#endif
#ifdef MPI_COMPLEX32
      TIT_TYPE(MPI_COMPLEX32, 44)
#endif
#ifdef MPI_INTEGER1
      TIT_TYPE(MPI_INTEGER1, 45)
#endif
#ifdef MPI_INTEGER2
      TIT_TYPE(MPI_INTEGER2, 46)
#endif
#ifdef MPI_INTEGER4
      TIT_TYPE(MPI_INTEGER4, 47)
#endif
#ifdef MPI_INTEGER8
      TIT_TYPE(MPI_INTEGER8, 48)
#endif
#ifdef MPI_INTEGER16
      TIT_TYPE(MPI_INTEGER16, 49)
#endif
#ifdef MPI_CXX_BOOL
      TIT_TYPE(MPI_CXX_BOOL, 51)
#endif
#ifdef MPI_CXX_FLOAT_COMPLEX
      TIT_TYPE(MPI_CXX_FLOAT_COMPLEX, 52)
#endif
#ifdef MPI_CXX_DOUBLE_COMPLEX
      TIT_TYPE(MPI_CXX_DOUBLE_COMPLEX, 53)
#endif
#ifdef MPI_CXX_LONG_DOUBLE_COMPLEX
      TIT_TYPE(MPI_CXX_LONG_DOUBLE_COMPLEX, 54)
#endif
  };
#undef TIT_TYPE
  for (const KnownType& k : known) {
    if (k.type == MPI_DATATYPE_NULL || types_.count(k.type) != 0)
      continue;
    int size = -1;
    // Optional types an implementation lacks may be null or fail here: they are skipped.
    if (PMPI_Type_size(k.type, &size) != MPI_SUCCESS || size != k.size)
      continue; // sizes differ from the trace format's: written as bytes instead
    types_.emplace(k.type, TypeCode{k.id, 1});
  }
}

TypeCode Tracer::type(MPI_Datatype t)
{
  if (t == last_type_)
    return last_code_;
  TypeCode code;
  if (auto it = types_.find(t); it != types_.end()) {
    code = it->second;
  } else {
    // Derived (or unnumbered predefined) type: its packed size in bytes, never 0 or -1.
    int size = 0;
    PMPI_Type_size(t, &size);
    code = TypeCode{kByteId, size};
  }
  last_type_ = t;
  last_code_ = code;
  return code;
}

// ---------------------------------------------------------------------------------------------
// Communicators

CommInfo Tracer::describe(MPI_Comm c)
{
  CommInfo info;
  int inter = 0;
  PMPI_Comm_test_inter(c, &inter);
  if (inter != 0)
    return info; // an intercommunicator: its ranks are not translated
  PMPI_Comm_size(c, &info.size);
  PMPI_Comm_rank(c, &info.my_rank);
  MPI_Group group, world_group;
  PMPI_Comm_group(c, &group);
  PMPI_Comm_group(MPI_COMM_WORLD, &world_group);
  std::vector<int> ranks(static_cast<std::size_t>(info.size));
  for (int i = 0; i < info.size; ++i)
    ranks[static_cast<std::size_t>(i)] = i;
  info.world.resize(ranks.size());
  PMPI_Group_translate_ranks(group, info.size, ranks.data(), world_group, info.world.data());
  PMPI_Group_free(&group);
  PMPI_Group_free(&world_group);
  return info;
}

CommInfo* Tracer::comm(MPI_Comm c)
{
  if (c == MPI_COMM_WORLD)
    return world_;
  if (c == last_comm_)
    return last_info_;
  auto it = comms_.find(c);
  if (it == comms_.end()) {
    // Not obtained through a traced call (MPI_COMM_SELF, intercommunicators, ...): translate its
    // ranks; lines on it carry comm=unknown (the replayer then says which line it cannot place).
    CommInfo info = describe(c);
    if (c == MPI_COMM_SELF) {
      info.self = true;
      info.handle = 0; // self-messages carry world ranks; its collectives are not written
    } else {
      info.handle = -2; // its lines end with comm=unknown (end_line notes it once in the trace)
    }
    it = comms_.emplace(c, std::move(info)).first;
  }
  last_comm_ = c;
  last_info_ = &it->second;
  return last_info_;
}

int Tracer::add_comm(MPI_Comm c)
{
  if (c == MPI_COMM_NULL)
    return -1;
  last_comm_ = MPI_COMM_NULL;
  CommInfo info = describe(c);
  info.handle = next_comm_++;
  comms_.insert_or_assign(c, std::move(info));
  return next_comm_ - 1;
}

void Tracer::remove_comm(MPI_Comm c)
{
  comms_.erase(c);
  last_comm_ = MPI_COMM_NULL;
}

// ---------------------------------------------------------------------------------------------
// Start, finish, failures

namespace {

[[noreturn]] void write_failed(const std::string& path, int error_number)
{
  the_tracer.fatal("writing '" + path + "' failed: " + std::strerror(error_number) +
          " (the trace would be truncated; is the disk full or a file size limit set?)");
}

std::array<struct sigaction, 8> previous_actions;
constexpr std::array<int, 8> kFatalSignals = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTERM, SIGINT, SIGQUIT};

void on_fatal_signal(int sig)
{
  the_tracer.emergency_flush("killed by a signal");
  for (std::size_t i = 0; i < kFatalSignals.size(); ++i)
    if (kFatalSignals[i] == sig)
      sigaction(sig, &previous_actions[i], nullptr);
  raise(sig);
}

void on_exit_without_finalize()
{
  if (the_tracer.active)
    the_tracer.emergency_flush("the process exited without MPI_Finalize");
}

int make_dirs(const std::string& dir)
{
  std::string partial;
  for (std::size_t i = 0; i <= dir.size(); ++i) {
    if (i == dir.size() || (dir[i] == '/' && i > 0)) {
      partial = dir.substr(0, i);
      if (mkdir(partial.c_str(), 0755) != 0 && errno != EEXIST)
        return errno;
    }
  }
  struct stat st{};
  if (stat(dir.c_str(), &st) != 0)
    return errno;
  if (!S_ISDIR(st.st_mode))
    return ENOTDIR;
  return 0;
}

std::string rank_file(int r) { return "rank-" + std::to_string(r) + ".txt"; }

[[noreturn]] void cannot_create(Tracer& t, const std::string& path, int error_number)
{
  t.fatal("cannot write in the trace directory '" + t.config.dir + "': creating '" + path + "': " +
          std::strerror(error_number));
}

/// Creates the trace directory and opens the rank's files in it (its trace, its timings).
void open_rank_files(Tracer& t)
{
  const Config& config = t.config;
  if (int e = make_dirs(config.dir); e != 0)
    t.fatal("cannot create the trace directory '" + config.dir + "': " + std::strerror(e) +
            " (set TIT_TRACE_DIR to a writable directory)");
  std::string path = config.dir + "/" + rank_file(t.rank);
  if (config.text)
    if (int e = t.trace.open(path, config.buffer, write_failed); e != 0)
      cannot_create(t, path, e);
  if (config.timings) {
    std::string tpath = config.dir + "/timings-" + std::to_string(t.rank) + ".csv";
    if (int e = t.timings.open(tpath, 1 << 16, write_failed); e != 0)
      cannot_create(t, tpath, e);
  }
}

/// Fatal signals and an exit without MPI_Finalize flush what is buffered (emergency_flush).
void install_handlers()
{
  // A full disk or a file size limit must be an error, not a silent truncation: SIGXFSZ would kill
  // the process before write(2) could report EFBIG.
  std::signal(SIGXFSZ, SIG_IGN);
  for (std::size_t i = 0; i < kFatalSignals.size(); ++i) {
    struct sigaction sa{};
    sa.sa_handler = on_fatal_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND;
    sigaction(kFatalSignals[i], &sa, &previous_actions[i]);
  }
  static bool registered = false;
  if (!registered)
    std::atexit(on_exit_without_finalize);
  registered = true;
}

/// Rank 0's trace.list: the files of the trace.
void write_trace_list(Tracer& t)
{
  const Config& config = t.config;
  OutFile list;
  std::string lpath = config.dir + "/trace.list";
  if (int e = list.open(lpath, 1 << 16, write_failed); e != 0)
    cannot_create(t, lpath, e);
  // the compressed file, written at MPI_Finalize, is listed when it is the only format
  for (int r = 0; r < t.size && config.text; ++r)
    list.append(rank_file(r) + "\n");
  if (!config.text)
    list.append(std::string(kCompressedFile) + "\n");
  list.close();
}

/// Rank 0's warnings: compute volumes estimated (`why` they are not measured), CPU time read with a system call
/// (`cpu_why`).
void warn_of_estimates(const Tracer& t, const std::string& why, const std::string& cpu_why)
{
  if (t.meter.mode() != ComputeMode::Instructions)
    std::fprintf(stderr,
                 "tit-trace: warning: compute volumes are ESTIMATES (%s x %g instructions/s), not "
                 "measured instructions%s%s; the trace header says so\n",
                 t.meter.mode() == ComputeMode::CpuTime ? "thread CPU time" : "wall-clock time", t.config.rate,
                 why.empty() ? "" : ": ", why.c_str());
  if (!cpu_why.empty())
    std::fprintf(stderr,
                 "tit-trace: note: thread CPU time is read with a system call at every MPI call (slower "
                 "tracing), because %s\n",
                 cpu_why.c_str());
}

/// "MPI_Put, MPI_Win_fence": the names of `v`.
std::string joined(const std::vector<std::string>& v)
{
  std::string s;
  for (const std::string& n : v)
    s += (s.empty() ? "" : ", ") + n;
  return s;
}

/// Rank 0's warning when the program imports MPI routines that the trace will not show.
void warn_of_untraced(const Tracer& t)
{
  if (!t.untraced.empty())
    std::fprintf(stderr,
                 "tit-trace: warning: the program's Fortran code calls MPI routines this tracer has no Fortran entry "
                 "point for: %s; their calls are in no line of the trace and their time is counted as computation "
                 "(tracer/README.md, \"Untraced routines\"); the trace header says so\n",
                 joined(t.untraced).c_str());
}

/// The head of the timings file: its origin `t0` and the host, then the columns' names.
void write_timings_head(OutFile& timings, double t0)
{
  // The origin on the host's CLOCK_MONOTONIC: ranks of one host can compare their timings (a message's send
  // start with its receive end), which tit-calibrate from-trace does for the network's factors.
  char head[512] = {};
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  std::snprintf(head, sizeof head, "# origin: %.9f s (CLOCK_MONOTONIC at the return from MPI_Init)\n# host: %s\n",
                t0, host);
  timings.append(head);
  timings.append("line,action,start_s,end_s\n");
}

} // namespace

void Tracer::fatal(const std::string& message)
{
  std::fprintf(stderr, "tit-trace: error: rank %d: %s\n", rank, message.c_str());
  std::fflush(stderr);
  active = false;
  PMPI_Abort(MPI_COMM_WORLD, 2);
  std::_Exit(2);
}

void Tracer::start()
{
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &size);
  rank_prefix_ = std::to_string(rank);
  if (std::string err = read_config(config); !err.empty())
    fatal("bad setting " + err);
  open_rank_files(*this);
  std::string cpu_why;
  std::string why = meter.start(config.compute, config.rate, config.cpu_clock, cpu_why);
  if (config.compute == "instructions" && meter.mode() != ComputeMode::Instructions)
    fatal("TIT_TRACE_COMPUTE=instructions but the hardware counter is unavailable: " + why);
  if (config.cpu_clock == "switches" && meter.mode() == ComputeMode::CpuTime && !cpu_why.empty())
    fatal(cpu_why);
  min_volume = config.min_burst * config.rate;
  install_handlers();

  untraced = untraced_imports();

  world_ = &comms_[MPI_COMM_WORLD];
  world_->handle = 0;
  world_->size = size;
  world_->my_rank = rank;
  init_types();

  if (config.text) {
    write_header();
    trace.flush(); // the header is on disk: the directory is writable now, not only at the end
  }
  if (config.compressed)
    start_compressed();
  if (config.timings)
    timings.flush();

  if (rank == 0) {
    write_trace_list(*this);
    warn_of_estimates(*this, why, cpu_why);
    warn_of_untraced(*this);
  }

  t0 = Meter::now();
  if (config.timings)
    write_timings_head(timings, t0);
  last_exit_wall = t0;
  enter_wall = t0;
  active = true;
  line(name_of(Kind::Init));
  end_line();
  last_exit_wall = Meter::now();
  last_exit = meter.read();
}

void Tracer::write_header()
{
  std::string h = std::string("# tit-trace ") + kVersion + ": time-independent trace, SimGrid dialect\n";
  h += "# rank " + std::to_string(rank) + " of " + std::to_string(size) + "\n";
  h += "# compute: " + meter.describe() + "\n";
  h += "# read with: " + meter.source() + "\n";
  char rate[64];
  std::snprintf(rate, sizeof rate, "%g", config.rate);
  h += std::string("# rate: ") + rate +
       (meter.mode() == ComputeMode::Instructions ? " instructions/s (nominal; not used for the volumes)\n"
                                                  : " instructions/s (the volumes are time x this rate)\n");
  char buf[256] = {};
  gethostname(buf, sizeof buf - 1);
  h += std::string("# host: ") + buf + "\n";
  char version[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int len = 0;
  PMPI_Get_library_version(version, &len);
  std::string v(version, static_cast<std::size_t>(len));
  v = v.substr(0, v.find('\n'));
  while (!v.empty() && (v.back() == ',' || v.back() == ' ' || v.back() == '\r' || v.back() == '\0' || v.back() == '\t'))
    v.pop_back();
  h += "# mpi: " + v + "\n";
  std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  h += std::string("# date: ") + buf + "\n";
  if (!untraced.empty())
    h += "# untraced: " + joined(untraced) + " (Fortran MPI routines the program calls that no line shows)\n";
  trace.append(h);
}

void Tracer::finish()
{
  line(name_of(Kind::Finalize));
  enter_wall = config.timings ? Meter::now() : 0;
  end_line();
  active = false;
  if (long n = meter.resyncs(); n > 0 && config.text)
    trace.append("# tit-trace: context-switch records overflowed " + std::to_string(n) +
                 " time(s); the CPU clock was read from CLOCK_THREAD_CPUTIME_ID then\n");
  if (!untraced_calls.empty()) {
    std::vector<std::string> counted;
    for (const auto& [name, count] : untraced_calls)
      counted.push_back(std::string(name) + " " + std::to_string(count));
    std::string calls = joined(counted);
    if (config.text)
      trace.append("# tit-trace: untraced MPI calls (in no line; their time is in the computes): " + calls + "\n");
    if (rank == 0)
      std::fprintf(stderr,
                   "tit-trace: warning: rank 0 called MPI routines this tracer does not trace: %s; no line of the "
                   "trace shows them and their time is counted as computation (tracer/README.md, \"Untraced "
                   "routines\")\n",
                   calls.c_str());
  }
  trace.close();
  if (config.timings)
    timings.close();
  meter.stop();
  if (compressor_)
    merge_compressed();
}

// ---------------------------------------------------------------------------------------------
// The compressed format

namespace {

constexpr std::size_t kPiece = std::size_t{1} << 30; // bytes per message (counts are ints)

void send_bytes(MPI_Comm c, int to, const std::string& bytes)
{
  std::uint64_t n = bytes.size();
  PMPI_Send(&n, 1, MPI_UINT64_T, to, 0, c);
  for (std::size_t off = 0; off < n; off += kPiece)
    PMPI_Send(bytes.data() + off, static_cast<int>(std::min<std::size_t>(kPiece, n - off)), MPI_BYTE, to, 0, c);
}

std::string recv_bytes(MPI_Comm c, int from)
{
  std::uint64_t n = 0;
  PMPI_Recv(&n, 1, MPI_UINT64_T, from, 0, c, MPI_STATUS_IGNORE);
  std::string bytes(n, '\0');
  for (std::size_t off = 0; off < n; off += kPiece)
    PMPI_Recv(bytes.data() + off, static_cast<int>(std::min<std::size_t>(kPiece, n - off)), MPI_BYTE, from, 0, c,
              MPI_STATUS_IGNORE);
  return bytes;
}

} // namespace

void Tracer::start_compressed()
{
  // `stats` is folded with exact values as the program runs, then once more with one compute per gap at
  // MPI_Finalize (merge_compressed); rank 0 pools the merged ranks' values when it writes the file
  trace::ValueMode values = trace::parse_value_mode(config.values);
  if (values.kind == trace::ValueMode::Kind::Stats)
    values = trace::ValueMode{};
  join_computes_ = values.kind == trace::ValueMode::Kind::Binned;
  compressor_ = std::make_unique<trace::cformat::RankCompressor>(rank, size, values);
  PMPI_Comm_dup(MPI_COMM_WORLD, &merge_comm_);
  // the unit the text header gives (its `# compute:` mode and `# rate:`), as the trace reader derives it
  std::string mode = meter.describe();
  mode = mode.substr(0, mode.find(' '));
  char rate[64];
  std::snprintf(rate, sizeof rate, "%g", config.rate);
  compute_unit_ = trace::compute_unit(mode, rate);
  lost_note_ = "tit-trace: error: rank " + std::to_string(rank) + ": the compressed trace '" + config.dir + "/" +
               kCompressedFile + "' is not written (the ranks merge it at MPI_Finalize)" +
               (config.text ? "; the per-rank text files have what was traced\n"
                            : "; TIT_TRACE_FORMAT=text,compressed also writes per-rank text files, which keep what "
                              "an incomplete run traced\n");
}

void Tracer::merge_compressed()
{
  namespace cf = trace::cformat;
  cf::Part mine;
  try {
    flush_compute(); // a compute that no action followed
    mine = compressor_->finish();
    compressor_.reset();
    if (trace::parse_value_mode(config.values).kind == trace::ValueMode::Kind::Stats)
      mine = cf::fold_gaps(std::move(mine), size); // as tit-trace compress folds a rank for `stats`
    // binomial tree: at step `mask`, a rank with that bit sends its part down and is done; the others take the part
    // of rank + mask (which holds ranks rank + mask .. rank + 2 mask - 1) and merge it with theirs
    bool merged = false;
    for (int mask = 1; mask < size; mask <<= 1) {
      if ((rank & mask) != 0) {
        send_bytes(merge_comm_, rank - mask, cf::encode_part(mine));
        PMPI_Comm_free(&merge_comm_);
        return;
      }
      if (rank + mask < size) {
        std::string bytes = recv_bytes(merge_comm_, rank + mask);
        std::vector<cf::Part> parts;
        parts.push_back(std::move(mine));
        parts.push_back(cf::decode_part(bytes, "the compressed part of rank " + std::to_string(rank + mask)));
        mine = cf::merge_parts(std::move(parts));
        merged = true;
      }
    }
    PMPI_Comm_free(&merge_comm_);
    if (!merged) { // one rank: its ids still take the canonical order
      std::vector<cf::Part> one;
      one.push_back(std::move(mine));
      mine = cf::merge_parts(std::move(one));
    }
  } catch (const trace::TraceError& e) {
    fatal(std::string("merging the compressed trace: ") + e.what());
  } catch (const std::bad_alloc&) {
    fatal("merging the compressed trace: out of memory");
  }
  std::string path = config.dir + "/" + kCompressedFile;
  try {
    trace::CompressStats written =
        cf::write_compressed(path, size, trace::parse_value_mode(config.values), compute_unit_, std::move(mine));
    if (!written.warning.empty()) // stats whose draws would move the prediction: the values kept, said on stderr
      std::fprintf(stderr, "tit-trace: %s\n", written.warning.c_str());
  } catch (const trace::TraceError& e) {
    std::string what = e.what();
    if (what.starts_with("error: "))
      what = what.substr(7);
    fatal(what + " (the trace is lost; is the disk full or a file size limit set?)");
  }
}

void Tracer::emergency_flush(const char* why) noexcept
{
  if (!active)
    return;
  active = false;
  if (compressor_) { // preformatted: nothing allocated here (a signal handler may call this)
    ssize_t ignored = ::write(2, lost_note_.data(), lost_note_.size());
    (void)ignored;
  }
  if (trace.is_open()) {
    // The buffer goes out as it is; the comment marks the trace as incomplete.
    trace.flush_now(); // empties the buffer: the appends below cannot trigger a reporting flush
    trace.append("# tit-trace: INCOMPLETE trace: ");
    trace.append(why);
    trace.append("\n");
    trace.flush_now();
  }
  if (timings.is_open())
    timings.flush_now();
}

} // namespace tit::tracer
