// The other files users give the tools: workload files (tit-replay --workload), sweep files (tit-sweep), the
// calibration programs' measurement CSVs and the tracer's timings (tit-calibrate). The first byte chooses the reader
// (`% 4`) and, for the CSVs, the format (`/ 4 % 3`). Every input is either read or refused with the reader's own
// InputError.
#include "fuzz_files.hpp"

#include "contention.hpp"
#include "cpu.hpp"
#include "csv.hpp"
#include "insitu.hpp"
#include "p2p.hpp"
#include "replay/placement.hpp"
#include "replay/workload.hpp"
#include "spec.hpp"
#include "timings.hpp"

#include <string>

namespace {

/// A 2-rank trace (rank 0 sends to rank 1) whose timings are the fuzzed input (rank 0's), rank 1's being valid.
void timings_case(const std::filesystem::path& dir, std::string_view input)
{
  tit::fuzz::write_file(dir / "traces.txt", "rank-0.txt\nrank-1.txt\n");
  tit::fuzz::write_file(dir / "rank-0.txt", "0 init\n0 compute 1e6\n0 send 1 0 100\n0 finalize\n");
  tit::fuzz::write_file(dir / "rank-1.txt", "1 init\n1 recv 0 0 100\n1 finalize\n");
  tit::fuzz::write_file(dir / "timings-0.csv", input);
  tit::fuzz::write_file(dir / "timings-1.csv", "# origin: 10 s\n# host: h\nline,action,start_s,end_s\n1,init,0,0\n"
                                               "2,recv,0,1\n3,finalize,1,1\n");
  auto keep = [](const tit::trace::Action&) { return true; };
  auto actions = tit::calib::timed_actions(dir / "traces.txt", dir, keep);
  tit::calib::InSituOptions options;
  options.route = tit::calib::Route{1e9, 1e-6};
  options.bw_factor = "0:1";
  try {
    (void)tit::calib::fit_in_situ(actions, options);
  } catch (const tit::calib::InputError&) {
  }
  (void)tit::calib::bursts_from_trace(dir / "traces.txt", dir, 0, 0);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  if (size == 0)
    return 0;
  auto dir = tit::fuzz::scratch();
  std::string_view input(reinterpret_cast<const char*>(data) + 1, size - 1);
  try {
    switch (data[0] % 4) {
    case 0:
      tit::fuzz::write_file(dir / "workload.txt", input);
      (void)tit::replay::read_workload(dir / "workload.txt");
      break;
    case 1:
      tit::fuzz::write_file(dir / "sweep.yaml", input);
      (void)tit::sweep::load_spec(dir / "sweep.yaml");
      break;
    case 2: {
      auto table = [&](const char* format) { return tit::calib::CsvTable::parse(input, "input.csv", format); };
      switch (data[0] / 4 % 3) {
      case 0:
        (void)tit::calib::fit_p2p(tit::calib::load_p2p(table("p2p")), tit::calib::Route{1e9, 1e-6},
                                  tit::calib::P2pOptions{});
        break;
      case 1:
        (void)tit::calib::fit_cpu(tit::calib::load_cpu(table("cpu")), std::nullopt);
        break;
      default:
        (void)tit::calib::fit_contention(tit::calib::load_contention(table("contention")));
        break;
      }
      break;
    }
    default:
      timings_case(dir, input);
      break;
    }
  } catch (const tit::replay::InputError&) {
  } catch (const tit::sweep::InputError&) {
  } catch (const tit::calib::InputError&) {
  }
  return 0;
}
