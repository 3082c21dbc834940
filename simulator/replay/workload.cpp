#include "replay/workload.hpp"

#include "replay/placement.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>

namespace tit::replay {
namespace fs = std::filesystem;
namespace {

[[noreturn]] void fail(const std::string& where, const std::string& what)
{
  throw InputError(fmt::format("{}: error: {}", where, what));
}

template <typename T> bool parse_number(const std::string& text, T& out)
{
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), out);
  return error == std::errc() && end == text.data() + text.size();
}

/// A path of the workload, relative to its folder unless absolute.
fs::path beside(const fs::path& workload, const std::string& path)
{
  fs::path p(path);
  return p.is_absolute() ? p : workload.parent_path() / p;
}

/// The checks every job gets, whatever the form: a start time >= 0, traces that exist, a name of its own.
void check_job(const Job& job, std::map<std::string, std::string>& names)
{
  if (job.name.empty())
    fail(job.where, "a job needs a name");
  if (auto [it, fresh] = names.emplace(job.name, job.where); not fresh)
    fail(job.where, fmt::format("job name '{}' is already the name of the job of {}", job.name, it->second));
  if (not(job.start >= 0))
    fail(job.where, fmt::format("job '{}': start time {} is negative (a start time is >= 0 s)", job.name, job.start));
  std::error_code ec;
  if (not fs::exists(job.traces, ec))
    fail(job.where, fmt::format("job '{}': unknown trace '{}': no such file or directory", job.name,
                                job.traces.string()));
}

// ---- SimGrid's replay_multiple_manual form ---------------------------------------------------------------
// One job a line: NAME TRACE_LIST SIZE START HOST_INDICES (indices comma-separated, in the order the engine
// lists the platform's hosts). As in SimGrid's example, a line whose first five fields do not read so is a
// comment, and the jobs are taken in order of start time, then of name.

std::vector<Job> read_manual(const fs::path& file)
{
  std::ifstream in(file);
  std::vector<Job> jobs;
  std::map<std::string, std::string> names;
  std::string line;
  for (std::size_t number = 1; std::getline(in, line); ++number) {
    std::istringstream fields(line);
    std::vector<std::string> f{std::istream_iterator<std::string>(fields), std::istream_iterator<std::string>()};
    int size = 0;
    double start = 0;
    if (f.size() < 5 || not parse_number(f[2], size) || not parse_number(f[3], start))
      continue; // commentary
    Job job;
    job.where = fmt::format("{}:{}", file.string(), number);
    job.name = f[0];
    job.traces = beside(file, f[1]);
    job.start = start;
    std::string indices = f[4];
    for (std::size_t pos = 0; pos <= indices.size();) {
      std::size_t comma = std::min(indices.find(',', pos), indices.size());
      std::string text = indices.substr(pos, comma - pos);
      int index = 0;
      if (not text.empty()) { // SimGrid skips empty fields (",," is one separator)
        if (not parse_number(text, index))
          fail(job.where, fmt::format("job '{}': host index '{}' is not an integer (expected indices such as 0,1,2)",
                                      job.name, text));
        job.host_indices.push_back(index);
      }
      pos = comma + 1;
    }
    if (size <= 0 || static_cast<int>(job.host_indices.size()) != size)
      fail(job.where, fmt::format("job '{}': {} host indices for {} ranks (one host index per rank)", job.name,
                                  job.host_indices.size(), size));
    check_job(job, names);
    job.ranks = size;
    jobs.push_back(std::move(job));
  }
  std::stable_sort(jobs.begin(), jobs.end(), [](const Job& a, const Job& b) {
    return a.start != b.start ? a.start < b.start : a.name < b.name;
  });
  return jobs;
}

// ---- JSON form -----------------------------------------------------------------------------------------
// {"jobs": [{"name": ..., "traces": ..., one of "hosts"/"host_indices"/"hostfile"/"deployment", "ranks",
// "start", "cfg": [...]}, ...]}

/// Reads the text one character at a time and remembers where it is, so that a job can be given the line
/// of its opening brace.
struct TrackingIterator {
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;
  const char* at = nullptr;
  const char** last = nullptr;
  reference operator*() const
  {
    *last = at;
    return *at;
  }
  TrackingIterator& operator++()
  {
    ++at;
    return *this;
  }
  TrackingIterator operator++(int)
  {
    auto copy = *this;
    ++at;
    return copy;
  }
  bool operator==(const TrackingIterator& o) const { return at == o.at; }
  bool operator!=(const TrackingIterator& o) const { return at != o.at; }
};

std::size_t line_at(const std::string& text, const char* at)
{
  return 1 + static_cast<std::size_t>(std::count(text.data(), at, '\n'));
}

Job json_job(const nlohmann::json& j, const fs::path& file, const std::string& where)
{
  Job job;
  job.where = where;
  if (not j.is_object())
    fail(where, "a job is an object such as {\"name\": \"a\", \"traces\": \"dir\", \"hosts\": [\"h1\"]}");
  static const char* known[] = {"name", "traces", "hosts", "host_indices", "hostfile", "deployment",
                                "ranks", "start", "cfg"};
  for (auto const& item : j.items()) {
    const std::string& key = item.key(); // not a structured binding: clang before 16 cannot capture one
    if (std::find_if(std::begin(known), std::end(known), [&key](const char* k) { return key == k; }) ==
        std::end(known))
      fail(where, fmt::format("unknown key '{}' in a job (known: name, traces, hosts, host_indices, hostfile, "
                              "deployment, ranks, start, cfg)",
                              key));
  }
  auto text = [&](const char* key) {
    if (not j.contains(key))
      return std::string();
    if (not j[key].is_string())
      fail(where, fmt::format("'{}' is a string", key));
    return j[key].get<std::string>();
  };
  job.name = text("name");
  if (auto t = text("traces"); not t.empty())
    job.traces = beside(file, t);
  else
    fail(where, fmt::format("job '{}' has no \"traces\"", job.name));
  int placements = 0;
  if (j.contains("hosts")) {
    placements++;
    if (not j["hosts"].is_array() || j["hosts"].empty() ||
        not std::all_of(j["hosts"].begin(), j["hosts"].end(), [](auto const& h) { return h.is_string(); }))
      fail(where, fmt::format("job '{}': \"hosts\" is a non-empty list of host names, one per rank", job.name));
    job.hosts = j["hosts"].get<std::vector<std::string>>();
  }
  if (j.contains("host_indices")) {
    placements++;
    if (not j["host_indices"].is_array() || j["host_indices"].empty() ||
        not std::all_of(j["host_indices"].begin(), j["host_indices"].end(),
                        [](auto const& h) { return h.is_number_integer(); }))
      fail(where, fmt::format("job '{}': \"host_indices\" is a non-empty list of integers, one per rank", job.name));
    job.host_indices = j["host_indices"].get<std::vector<int>>();
  }
  if (auto h = text("hostfile"); not h.empty()) {
    placements++;
    job.hostfile = beside(file, h);
  }
  if (auto d = text("deployment"); not d.empty()) {
    placements++;
    job.deployment = beside(file, d);
  }
  if (placements != 1)
    fail(where, fmt::format("job '{}' needs exactly one of \"hosts\", \"host_indices\", \"hostfile\", "
                            "\"deployment\"",
                            job.name));
  if (j.contains("ranks")) {
    if (not j["ranks"].is_number_integer() || j["ranks"].get<int>() <= 0)
      fail(where, fmt::format("job '{}': \"ranks\" is a positive integer", job.name));
    job.ranks = j["ranks"].get<int>();
  }
  if (j.contains("start")) {
    if (not j["start"].is_number())
      fail(where, fmt::format("job '{}': \"start\" is a number of seconds", job.name));
    job.start = j["start"].get<double>();
  }
  if (j.contains("cfg")) {
    if (not j["cfg"].is_array() ||
        not std::all_of(j["cfg"].begin(), j["cfg"].end(), [](auto const& c) { return c.is_string(); }))
      fail(where, fmt::format("job '{}': \"cfg\" is a list of \"coll/...:VALUE\" strings", job.name));
    job.cfg = j["cfg"].get<std::vector<std::string>>();
  }
  return job;
}

std::vector<Job> read_json(const fs::path& file, const std::string& text)
{
  const char* last = text.data();
  std::vector<std::size_t> lines; // of each job's opening brace
  auto track = [&](int depth, nlohmann::json::parse_event_t event, nlohmann::json&) {
    if (event == nlohmann::json::parse_event_t::object_start && depth == 2)
      lines.push_back(line_at(text, last));
    return true;
  };
  nlohmann::json doc;
  try {
    TrackingIterator begin{text.data(), &last};
    TrackingIterator end{text.data() + text.size(), &last};
    doc = nlohmann::json::parse(begin, end, track);
  } catch (const nlohmann::json::exception& e) { // parse_error, and out_of_range for a number past a double
    fail(fmt::format("{}:{}", file.string(), line_at(text, last)), fmt::format("not valid JSON: {}", e.what()));
  }
  std::string top = fmt::format("{}:1", file.string());
  if (not doc.is_object() || not doc.contains("jobs") || not doc["jobs"].is_array() || doc.size() != 1)
    fail(top, "a JSON workload is {\"jobs\": [JOB, ...]} (see docs/workloads.md)");
  std::vector<Job> jobs;
  std::map<std::string, std::string> names;
  std::size_t k = 0;
  for (auto const& j : doc["jobs"]) {
    std::size_t line = k < lines.size() ? lines[k] : 1;
    ++k;
    jobs.push_back(json_job(j, file, fmt::format("{}:{}", file.string(), line)));
    check_job(jobs.back(), names);
  }
  return jobs;
}

} // namespace

std::vector<Job> read_workload(const fs::path& file)
{
  std::ifstream in(file);
  if (not in)
    throw InputError(fmt::format("error: cannot open workload '{}': no such file or directory", file.string()));
  std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  auto first = text.find_first_not_of(" \t\r\n");
  std::vector<Job> jobs = first != std::string::npos && text[first] == '{' ? read_json(file, text) : read_manual(file);
  if (jobs.empty())
    throw InputError(fmt::format("{}: error: no job in this workload (a job line reads NAME TRACE_LIST SIZE START "
                                 "HOST_INDICES, or use the JSON form)",
                                 file.string()));
  return jobs;
}

} // namespace tit::replay
