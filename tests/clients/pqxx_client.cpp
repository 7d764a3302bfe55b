// libpqxx 6.4 client test: connect, DDL, prepared statements with parameters, transactions
// (commit, abort, rollback on destruction), a unique violation caught as
// pqxx::unique_violation, and streaming a few thousand rows in and out (COPY).
// Usage: duet_pqxx_client HOST PORT   (exit status 1 if any check failed)
#include <pqxx/pqxx>

#include <cstdlib>
#include <iostream>
#include <string>
#include <tuple>

namespace {

int g_checks = 0;
int g_failures = 0;

void check(bool ok, const std::string& what) {
  ++g_checks;
  if (!ok) {
    ++g_failures;
    std::cout << "FAIL " << what << "\n";
  }
}

long long count_rows(pqxx::connection& conn) {
  pqxx::nontransaction tx{conn};
  return tx.exec1("SELECT count(*) FROM pqxx_t")[0].as<long long>();
}

void ddl_and_prepared(pqxx::connection& conn) {
  {
    pqxx::nontransaction tx{conn};
    tx.exec0("DROP TABLE IF EXISTS pqxx_t");
    tx.exec0("CREATE TABLE pqxx_t (id integer PRIMARY KEY, name text NOT NULL, amount numeric(10,2))");
  }
  conn.prepare("insert_row", "INSERT INTO pqxx_t VALUES ($1, $2, $3)");
  conn.prepare("find_row", "SELECT name, amount FROM pqxx_t WHERE id = $1");
  conn.prepare("sum_between", "SELECT count(*), sum(amount) FROM pqxx_t WHERE id BETWEEN $1 AND $2");

  pqxx::work tx{conn};
  for (int i = 1; i <= 100; ++i)
    tx.exec_prepared0("insert_row", i, "name" + std::to_string(i), std::to_string(i) + ".25");
  tx.exec_prepared0("insert_row", 101, "no amount", nullptr);
  tx.commit();

  pqxx::read_transaction rtx{conn};
  pqxx::row row = rtx.exec_prepared1("find_row", 42);
  check(row[0].as<std::string>() == "name42", "prepared select returns the name");
  check(row[1].as<std::string>() == "42.25", "numeric comes back as text 42.25");
  check(rtx.exec_prepared1("find_row", 101)[1].is_null(), "NULL parameter stored as NULL");
  check(rtx.exec_prepared("find_row", 999).empty(), "no row for a missing id");
  pqxx::row sums = rtx.exec_prepared1("sum_between", 10, 19);
  check(sums[0].as<long long>() == 10 && sums[1].as<std::string>() == "147.50",
        "prepared aggregate with two parameters");
}

void transactions(pqxx::connection& conn) {
  const long long before = count_rows(conn);
  {
    pqxx::work tx{conn};
    tx.exec_prepared0("insert_row", 200, "aborted", "1");
    tx.abort();
  }
  check(count_rows(conn) == before, "abort() discards the insert");
  {
    pqxx::work tx{conn};
    tx.exec_prepared0("insert_row", 201, "never committed", "1");
    // Destroyed without commit: libpqxx rolls the transaction back.
  }
  check(count_rows(conn) == before, "destruction without commit rolls back");
  {
    pqxx::work tx{conn};
    tx.exec_prepared0("insert_row", 202, "committed", "2");
    tx.exec0("UPDATE pqxx_t SET amount = amount + 1 WHERE id = 202");
    tx.commit();
  }
  pqxx::nontransaction tx{conn};
  check(tx.exec1("SELECT amount FROM pqxx_t WHERE id = 202")[0].as<std::string>() == "3.00",
        "committed insert and update are visible");
}

void unique_violation(pqxx::connection& conn) {
  bool caught = false;
  try {
    pqxx::work tx{conn};
    tx.exec_prepared0("insert_row", 1, "duplicate", "0");
    tx.commit();
  } catch (const pqxx::unique_violation& e) {
    caught = e.sqlstate() == "23505";
  }
  check(caught, "duplicate primary key throws pqxx::unique_violation with 23505");

  // An error inside a transaction block aborts it; later statements fail until ROLLBACK.
  // (pqxx::work refuses further statements itself after an error, so the block is driven
  // by hand to see the server's answer.)
  {
    pqxx::nontransaction tx{conn};
    tx.exec0("BEGIN");
    tx.exec_prepared0("insert_row", 300, "rolled back", "0");
    try {
      tx.exec0("SELECT 1 / 0");
      check(false, "division by zero succeeded");
    } catch (const pqxx::data_exception& e) {
      check(e.sqlstate() == "22012", "division by zero is a data_exception with 22012");
    }
    bool in_failed_tx = false;
    try {
      tx.exec0("SELECT 1");
    } catch (const pqxx::sql_error& e) {
      in_failed_tx = e.sqlstate() == "25P02";
    }
    check(in_failed_tx, "statement after an error in a transaction block fails with 25P02");
    tx.exec0("ROLLBACK");
  }
  check(count_rows(conn) == 102, "failed transactions left the table unchanged");
}

void streaming(pqxx::connection& conn) {
  constexpr int kRows = 5000;
  {
    pqxx::nontransaction tx{conn};
    tx.exec0("DROP TABLE IF EXISTS pqxx_stream");
    tx.exec0("CREATE TABLE pqxx_stream (id integer, label text, value double precision)");
  }
  {
    pqxx::work tx{conn};
    pqxx::stream_to out{tx, "pqxx_stream"};
    for (int i = 0; i < kRows; ++i)
      out << std::make_tuple(i, "label " + std::to_string(i), i * 0.5);
    out.complete();
    tx.commit();
  }
  long long count = 0, id_sum = 0;
  bool labels_ok = true;
  {
    pqxx::work tx{conn};
    pqxx::stream_from in{tx, "pqxx_stream"};
    std::tuple<int, std::string, double> row;
    while (in >> row) {
      ++count;
      id_sum += std::get<0>(row);
      labels_ok = labels_ok && std::get<1>(row) == "label " + std::to_string(std::get<0>(row));
    }
    in.complete();
    tx.commit();
  }
  check(count == kRows, "streamed back every row");
  check(id_sum == static_cast<long long>(kRows) * (kRows - 1) / 2, "streamed ids add up");
  check(labels_ok, "streamed labels match their ids");

  // The same rows through a plain query result.
  pqxx::nontransaction tx{conn};
  pqxx::result r = tx.exec("SELECT id, value FROM pqxx_stream ORDER BY id");
  check(r.size() == kRows && r[kRows - 1][1].as<double>() == (kRows - 1) * 0.5,
        "query result holds every row");
  tx.exec0("DROP TABLE pqxx_stream");
  tx.exec0("DROP TABLE pqxx_t");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: " << argv[0] << " HOST PORT\n";
    return 2;
  }
  try {
    pqxx::connection conn{std::string("host=") + argv[1] + " port=" + argv[2] +
                          " dbname=postgres user=postgres connect_timeout=10"};
    check(conn.is_open(), "connection is open");
    ddl_and_prepared(conn);
    transactions(conn);
    unique_violation(conn);
    streaming(conn);
  } catch (const std::exception& e) {
    ++g_failures;
    std::cout << "FAIL unexpected exception: " << e.what() << "\n";
  }
  std::cout << "pqxx: " << (g_checks - g_failures) << " passed, " << g_failures << " failed\n";
  return g_failures == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
