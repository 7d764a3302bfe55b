// libpqxx 6.4 client test: connect, DDL, prepared statements with parameters, transactions
// (commit, abort, rollback on destruction), a unique violation caught as
// pqxx::unique_violation, prepared calls of functions and procedures, and streaming a few
// thousand rows in and out (COPY).
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
    for (int i = 0; i < kRows; ++i) out << std::make_tuple(i, "label " + std::to_string(i), i * 0.5);
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
  check(r.size() == kRows && r[kRows - 1][1].as<double>() == (kRows - 1) * 0.5, "query result holds every row");
  tx.exec0("DROP TABLE pqxx_stream");
  tx.exec0("DROP TABLE pqxx_t");
}

// Function and procedure calls as prepared statements, which DuetDB runs straight through
// the compiled routine; with duet.direct_calls off (a placeholder setting to PostgreSQL)
// through the statement's plan. Both must give the same answers.
void routine_calls(pqxx::connection& conn) {
  {
    pqxx::nontransaction tx{conn};
    tx.exec0("DROP FUNCTION IF EXISTS pqxx_add(integer, integer)");
    tx.exec0("DROP FUNCTION IF EXISTS pqxx_rows(integer)");
    tx.exec0("DROP FUNCTION IF EXISTS pqxx_check(integer)");
    tx.exec0("DROP PROCEDURE IF EXISTS pqxx_split(integer, integer, integer)");
    tx.exec0(
        "CREATE FUNCTION pqxx_add(a integer, b integer) RETURNS integer LANGUAGE plpgsql STRICT AS "
        "$$ BEGIN RETURN a + b; END $$");
    tx.exec0(
        "CREATE FUNCTION pqxx_rows(n integer) RETURNS TABLE (i integer, label text) LANGUAGE plpgsql AS "
        "$$ BEGIN FOR k IN 1..n LOOP i := k; label := 'row ' || k; RETURN NEXT; END LOOP; END $$");
    tx.exec0(
        "CREATE FUNCTION pqxx_check(a integer) RETURNS integer LANGUAGE plpgsql AS "
        "$$ BEGIN IF a < 0 THEN RAISE EXCEPTION 'negative: %', a USING ERRCODE = '22003'; END IF; "
        "RETURN a; END $$");
    tx.exec0(
        "CREATE PROCEDURE pqxx_split(n integer, INOUT lo integer, INOUT hi integer) LANGUAGE plpgsql AS "
        "$$ BEGIN lo := n % 10; hi := n / 10; END $$");
  }
  conn.prepare("call_add", "SELECT pqxx_add($1, $2)");
  conn.prepare("call_rows", "SELECT * FROM pqxx_rows($1)");
  conn.prepare("call_check", "SELECT pqxx_check($1)");
  conn.prepare("call_split", "CALL pqxx_split($1, NULL, NULL)");
  for (const char* direct : {"on", "off"}) {
    std::string how = std::string(" (duet.direct_calls ") + direct + ")";
    pqxx::nontransaction tx{conn};
    tx.exec0(std::string("SET duet.direct_calls = ") + direct);
    check(tx.exec_prepared1("call_add", 20, 22)[0].as<int>() == 42, "prepared function call" + how);
    check(tx.exec_prepared1("call_add", 1, nullptr)[0].is_null(), "STRICT function with a NULL argument" + how);
    pqxx::result rows = tx.exec_prepared("call_rows", 3);
    check(rows.size() == 3 && rows[2][0].as<int>() == 3 && rows[2][1].as<std::string>() == "row 3",
          "prepared set-returning function" + how);
    pqxx::row split = tx.exec_prepared1("call_split", 42);
    check(split[0].as<int>() == 2 && split[1].as<int>() == 4, "prepared CALL returns the OUT row" + how);
    std::string state;
    try {
      tx.exec_prepared("call_check", -5);
    } catch (const pqxx::sql_error& e) {
      state = e.sqlstate();
    }
    check(state == "22003", "RAISE with ERRCODE inside a prepared call" + how);
    check(tx.exec_prepared1("call_check", 5)[0].as<int>() == 5, "the next autocommit call works" + how);
    // Inside a block the error fails the block: 25P02 until ROLLBACK, its work undone.
    tx.exec0("BEGIN");
    tx.exec_prepared0("insert_row", 400, "in block", "4");
    state.clear();
    try {
      tx.exec_prepared("call_check", -1);
    } catch (const pqxx::sql_error& e) {
      state = e.sqlstate();
    }
    try {
      tx.exec_prepared("call_add", 1, 2);
    } catch (const pqxx::sql_error& e) {
      state += "/" + e.sqlstate();
    }
    check(state == "22003/25P02", "a failed call fails its block (" + state + ")" + how);
    tx.exec0("ROLLBACK");
    check(tx.exec1("SELECT count(*) FROM pqxx_t WHERE id = 400")[0].as<int>() == 0, "the block was undone" + how);
  }
  pqxx::nontransaction tx{conn};
  tx.exec0("RESET duet.direct_calls");
  tx.exec0("DROP FUNCTION pqxx_add(integer, integer)");
  tx.exec0("DROP FUNCTION pqxx_rows(integer)");
  tx.exec0("DROP FUNCTION pqxx_check(integer)");
  tx.exec0("DROP PROCEDURE pqxx_split(integer, integer, integer)");
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
    routine_calls(conn);
    streaming(conn);
  } catch (const std::exception& e) {
    ++g_failures;
    std::cout << "FAIL unexpected exception: " << e.what() << "\n";
  }
  std::cout << "pqxx: " << (g_checks - g_failures) << " passed, " << g_failures << " failed\n";
  return g_failures == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
