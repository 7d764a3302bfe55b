// duet_tpcc_driver: the TPC-C mix over the wire, calling the five functions of
// bench/tpcc/procedures.sql with prepared statements, one transaction per call (autocommit).
//
//   duet_tpcc_driver --host 127.0.0.1 --port 5432 --dbname tpcc --connections 4 --duration 30
//
// Each connection is a terminal with a fixed home warehouse (connection number mod W, plus 1)
// that draws the inputs of clauses 2.4.1-2.8.1 (driver_inputs.h) and picks the transaction by
// the --mix weights; there are no keying or think times, so the figures are throughput, not a
// compliant TPC-C result. Prints a line per --progress interval, then the counts, tps, tpmC,
// New-Order's rollback rate, errors, retries and latency percentiles per type; exits 1 if
// any call failed.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <memory>
#include <vector>

#include "bench/tpcc/driver_mix.h"
#include "bench/tpcc/driver_terminal.h"

namespace tpcc {
namespace {

// W from the database when --warehouses is not given, and the server's version.
void inspectServer(const ConnectionOptions& options, RunInfo& info) {
  Connection conn(options);
  const char* version = PQparameterStatus(conn.get(), "server_version");
  info.server = std::string("server ") + (version ? version : "?");
  if (info.warehouses > 0) return;
  std::unique_ptr<PGresult, decltype(&PQclear)> result(PQexec(conn.get(), "SELECT count(*) FROM warehouse"), &PQclear);
  if (PQresultStatus(result.get()) != PGRES_TUPLES_OK || PQntuples(result.get()) != 1)
    throw std::runtime_error(std::string("SELECT count(*) FROM warehouse: ") + PQerrorMessage(conn.get()));
  info.warehouses = std::atoi(PQgetvalue(result.get(), 0, 0));
  if (info.warehouses < 1) throw std::runtime_error("the database has no warehouses: load it first");
}

}  // namespace
}  // namespace tpcc

int main(int argc, char** argv) {
  using namespace tpcc;
  CLI::App app{
      "duet_tpcc_driver: the TPC-C mix over the wire, calling bench/tpcc/procedures.sql's "
      "functions with prepared statements over --connections connections"};
  ConnectionOptions options;
  options.applicationName = "duet_tpcc_driver";
  MixOptions mix;
  RunInfo& info = mix.info;
  info.connections = 1;
  info.seconds = 10;
  info.warmupSeconds = 2;
  info.seed = 1;
  app.add_option("--host", options.host, "server host")->capture_default_str();
  app.add_option("--port", options.port, "server port")->capture_default_str();
  app.add_option("--dbname", options.dbname, "database")->capture_default_str();
  app.add_option("--user", options.user, "user name")->capture_default_str();
  app.add_option("--conninfo", options.conninfo,
                 "libpq connection string or URI, used instead of --dbname; its settings win over the options above");
  app.add_option("--warehouses", info.warehouses, "W (default: count(*) of warehouse)")->check(CLI::Range(1, 100000));
  app.add_option("--connections", info.connections, "connections (terminals), one thread each")
      ->check(CLI::Range(1, 1024))
      ->capture_default_str();
  addMixOptions(app, mix);
  CLI11_PARSE(app, argc, argv);
  if (const std::string problem = parseMix(mix); !problem.empty()) {
    std::fprintf(stderr, "duet_tpcc_driver: --mix %s: %s\n", mix.mixText.c_str(), problem.c_str());
    return 2;
  }

  // One thread per connection, each waiting for its call's result, rather than one thread
  // driving several connections in libpq's pipeline mode: a terminal has one transaction
  // in flight, as a TPC-C terminal and a pgbench client do, so the figures compare with
  // run_pgbench.sh's and each call's latency is the server's time plus one round trip. The
  // threads sleep in recv while the server works, so on a small machine they take no more
  // CPU from the server than an event loop would. Pipelining several calls on one
  // connection would measure something else: a server's queueing of one session's work.
  std::vector<std::unique_ptr<Terminal>> terminals;
  std::vector<CallRunner*> runners;
  try {
    inspectServer(options, info);
    for (int t = 0; t < info.connections; ++t) {
      terminals.push_back(std::make_unique<Terminal>(options));
      runners.push_back(terminals.back().get());
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "duet_tpcc_driver: %s\n", e.what());
    return 1;
  }
  std::fprintf(stderr, "%s, W = %d, %d connection(s), %.1f s warmup + %.1f s, mix %s\n", info.server.c_str(),
               info.warehouses, info.connections, info.warmupSeconds, info.seconds, mix.mixText.c_str());
  return reportMix(mix, runMix(runners, mix));
}
