// Records collective schedules without an engine: who posts what to whom, in which order.
#pragma once

#include "colls/colls.hpp"
#include "mpi/world.hpp"

#include <gtest/gtest.h>

#include <fmt/format.h>
#include <functional>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace tit::colls::testing {

using tit::colls::Algorithm;
using tit::colls::Call;
using tit::mpi::RequestPtr;

/// Records the operations of one rank as "isend 3 1024" lines.
class Recorder final : public tit::mpi::PointToPoint {
public:
  explicit Recorder(int rank) : rank_(rank) {}
  int rank() const override { return rank_; }
  using PointToPoint::irecv;
  using PointToPoint::isend;
  using PointToPoint::recv;
  using PointToPoint::send;
  using PointToPoint::sendrecv;
  void send(int dst, tit::mpi::Match m, double bytes) override { log("send", dst, m.tag, bytes); }
  RequestPtr isend(int dst, tit::mpi::Match m, double bytes) override
  {
    log("isend", dst, m.tag, bytes);
    return request(tit::mpi::Request::Type::Send, rank_, dst, m.tag, bytes);
  }
  void recv(int src, tit::mpi::Match m, double bytes) override { log("recv", src, m.tag, bytes); }
  RequestPtr irecv(int src, tit::mpi::Match m, double bytes) override
  {
    log("irecv", src, m.tag, bytes);
    return request(tit::mpi::Request::Type::Recv, src, rank_, m.tag, bytes);
  }
  void wait(const RequestPtr& req) override { ops.push_back(fmt::format("wait {}", req->type == tit::mpi::Request::Type::Send ? req->dst : req->src)); }
  void waitall(std::vector<RequestPtr>& reqs) override { ops.push_back(fmt::format("waitall {}", reqs.size())); }
  void sendrecv(int dst, double send_bytes, int src, double recv_bytes, tit::mpi::Match m) override
  {
    if (dst == rank_ && src == rank_)
      return;
    log("isend", dst, m.tag, send_bytes);
    log("irecv", src, m.tag, recv_bytes);
    ops.push_back("waitall 2");
  }

  std::vector<std::string> ops;
  /// (src, dst, tag) -> sizes in posting order, for this rank's sends and receives
  std::map<std::tuple<int, int, int>, std::vector<double>> sent, received;

private:
  void log(const char* what, int peer, int tag, double bytes)
  {
    ops.push_back(fmt::format("{} {} {}", what, peer, bytes));
    std::string kind = what;
    if (kind.find("send") != std::string::npos)
      sent[{rank_, peer, tag}].push_back(bytes);
    else
      received[{peer, rank_, tag}].push_back(bytes);
  }
  static RequestPtr request(tit::mpi::Request::Type type, int src, int dst, int tag, double bytes)
  {
    auto r = std::make_shared<tit::mpi::Request>();
    r->type = type;
    r->src = src;
    r->dst = dst;
    r->match.tag = tag;
    r->bytes = bytes;
    return r;
  }
  int rank_;
};

/// Runs `algorithm` on every rank of `call.size` and returns each rank's recorder.
inline std::vector<Recorder> run_all(Algorithm algorithm, const Call& call)
{
  std::vector<Recorder> ranks;
  for (int r = 0; r < call.size; ++r) {
    ranks.emplace_back(r);
    algorithm(ranks.back(), call);
  }
  return ranks;
}

/// The same, with each rank's own arguments (v-variants: every rank has its own sizes).
inline std::vector<Recorder> run_each(Algorithm algorithm, int n, const std::function<Call(int)>& call_of)
{
  std::vector<Recorder> ranks;
  for (int r = 0; r < n; ++r) {
    ranks.emplace_back(r);
    algorithm(ranks.back(), call_of(r));
  }
  return ranks;
}

/// Every message sent is received, with the same size, in the same order per (source, destination, tag).
inline void expect_matched(const std::vector<Recorder>& ranks, const std::string& what)
{
  std::map<std::tuple<int, int, int>, std::vector<double>> sent, received;
  for (auto const& r : ranks) {
    for (auto const& [k, v] : r.sent)
      sent[k] = v;
    for (auto const& [k, v] : r.received)
      received[k] = v;
  }
  EXPECT_EQ(sent, received) << what;
}


} // namespace tit::colls::testing
