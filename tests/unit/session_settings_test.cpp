// Settings: validation and normalisation as PostgreSQL does it, and SET / SET LOCAL
// visibility across commit and rollback.
#include <catch2/catch.hpp>

#include "engine/error.h"
#include "session/settings.h"

using namespace duet;

namespace {
std::string codeOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const SqlError& e) {
    return e.code;
  }
  return "none";
}
}  // namespace

TEST_CASE("settings: defaults, case-insensitive names, unknown names") {
  Settings s;
  CHECK(s.get("datestyle") == "ISO, MDY");
  CHECK(s.get("TimeZone") == "UTC");
  CHECK(s.get("server_version") == "15.0 (DuetDB 0.1)");
  CHECK(codeOf([&] { s.get("no_such_thing"); }) == "42704");
  CHECK(codeOf([&] { s.set("no_such_thing", "1", false); }) == "42704");
  CHECK(codeOf([&] { s.set("server_version", "1", false); }) == "55P02");
}

TEST_CASE("settings: custom placeholders") {
  Settings s;
  CHECK(codeOf([&] { s.get("app.user"); }) == "42704");
  CHECK(s.find("app.user") == nullptr);
  s.set("app.user", "alice", false);
  CHECK(s.get("App.User") == "alice");
  s.endTransaction(true);
  s.set("app.user", "bob", false);
  s.set("app.other", "x", true);
  s.endTransaction(false);
  CHECK(s.get("app.user") == "alice");
  CHECK(s.get("app.other") == "");
  CHECK(codeOf([&] { s.set("app", "1", false); }) == "42704");
  CHECK(codeOf([&] { s.set("1a.b", "1", false); }) == "42602");
  bool passed = false;
  for (const auto& [name, value] : s.nonDefaultValues()) passed = passed || (name == "app.user" && value == "alice");
  CHECK(passed);
  s.resetAll();
  CHECK(s.get("app.user") == "");
}

TEST_CASE("settings: normalisation and validation") {
  Settings s;
  s.set("client_encoding", "unicode", false);
  CHECK(s.get("client_encoding") == "UTF8");
  // Encodings PostgreSQL knows but DuetDB does not convert to: 0A000; unknown names: 22023.
  CHECK(codeOf([&] { s.set("client_encoding", "LATIN1", false); }) == "0A000");
  CHECK(codeOf([&] { s.set("client_encoding", "no_such", false); }) == "22023");
  s.set("client_encoding", "utf-8", false);
  CHECK(s.get("client_encoding") == "UTF8");
  s.set("DateStyle", "iso, dmy", false);
  CHECK(s.get("DateStyle") == "ISO, DMY");
  CHECK(s.get("duet.default_storage") == "column");
  s.set("DUET.default_storage", "Row", false);
  CHECK(s.get("duet.default_storage") == "row");
  CHECK(codeOf([&] { s.set("duet.default_storage", " row", false); }) == "22023");  // no trimming
  CHECK(codeOf([&] { s.set("bytea_output", " hex", false); }) == "22023");
  CHECK(codeOf([&] { s.set("duet.default_storage", "diagonal", false); }) == "22023");
  s.set("statement_timeout", "5000", false);
  CHECK(s.get("statement_timeout") == "5s");
  CHECK(s.statementTimeoutMs() == 5000);
  s.set("statement_timeout", "1500", false);
  CHECK(s.get("statement_timeout") == "1500ms");
  s.set("work_mem", "64MB", false);
  CHECK(s.get("work_mem") == "64MB");
  s.set("synchronous_commit", "false", false);
  CHECK(s.get("synchronous_commit") == "off");
  CHECK(codeOf([&] { s.set("extra_float_digits", "9", false); }) == "22023");
  s.set("extra_float_digits", "0", false);
  CHECK(s.typeContext().extraFloatDigits == 0);
  CHECK(codeOf([&] { s.set("jit", "maybe", false); }) == "22023");
  CHECK(codeOf([&] { s.set("default_transaction_isolation", "chaos", false); }) == "22023");
  s.set("timezone", "america/new_york", false);
  CHECK(s.get("TimeZone") == "America/New_York");
  CHECK(s.typeContext().namedZone != nullptr);
  s.set("timezone", "UTC+3", false);
  CHECK(s.get("TimeZone") == "UTC+3");
  CHECK(s.typeContext().namedZone == nullptr);  // a fixed offset drops the named zone
  CHECK(s.typeContext().timeZoneOffsetSeconds == -3 * 3600);
  CHECK(codeOf([&] { s.set("timezone", "Mars/Olympus", false); }) == "22023");
}

TEST_CASE("settings: client_min_messages levels, hidden names and PostgreSQL's message") {
  Settings s;
  CHECK(s.clientMinMessages() == MessageLevel::Notice);
  s.set("client_min_messages", "DEBUG", false);
  CHECK(s.get("client_min_messages") == "debug2");
  CHECK(s.clientMinMessages() == MessageLevel::Debug2);
  s.set("client_min_messages", "info", false);
  CHECK(s.clientMinMessages() == MessageLevel::Info);
  s.set("client_min_messages", "Error", true);
  CHECK(s.clientMinMessages() == MessageLevel::Error);
  s.endTransaction(true);
  CHECK(s.clientMinMessages() == MessageLevel::Info);
  try {
    s.set("client_min_messages", " notice", false);
    FAIL("a padded level was accepted");
  } catch (const SqlError& e) {
    CHECK(e.code == "22023");
    CHECK(std::string(e.what()) == "invalid value for parameter \"client_min_messages\": \" notice\"");
    CHECK(e.hint == "Available values: debug5, debug4, debug3, debug2, debug1, log, notice, warning, error.");
  }
  CHECK(s.clientMinMessages() == MessageLevel::Info);
}

TEST_CASE("settings: duet.compile_tier chooses the statements' compile tiers") {
  Settings s;
  CHECK(s.get("duet.compile_tier") == "adaptive");
  CHECK(s.compileTiers() == CompileTiers::Adaptive);
  s.set("duet.compile_tier", "Cheap", false);
  CHECK(s.compileTiers() == CompileTiers::Cheap);
  s.set("duet.compile_tier", "optimized", true);
  CHECK(s.compileTiers() == CompileTiers::Optimised);
  s.endTransaction(true);
  CHECK(s.compileTiers() == CompileTiers::Cheap);
  try {
    s.set("duet.compile_tier", "fast", false);
    FAIL("an unknown tier was accepted");
  } catch (const SqlError& e) {
    CHECK(e.code == "22023");
    CHECK(e.hint == "Available values: adaptive, cheap, optimized.");
  }
}

TEST_CASE("settings: transaction scoping of SET and SET LOCAL") {
  Settings s;
  s.set("application_name", "a", false);
  s.endTransaction(true);
  CHECK(s.get("application_name") == "a");

  s.set("application_name", "b", false);
  s.endTransaction(false);
  CHECK(s.get("application_name") == "a");

  s.set("application_name", "c", true);
  CHECK(s.get("application_name") == "c");
  s.endTransaction(true);
  CHECK(s.get("application_name") == "a");

  s.set("application_name", "d", false);
  s.set("application_name", "e", true);
  s.endTransaction(true);
  CHECK(s.get("application_name") == "d");
}

TEST_CASE("settings: reported changes, session defaults and RESET") {
  Settings s;
  s.setSessionDefault("application_name", "psql");
  (void)s.takeReportChanges();  // the startup ParameterStatus set
  s.set("application_name", "x", false);
  s.set("work_mem", "8MB", false);  // not reported
  auto changes = s.takeReportChanges();
  REQUIRE(changes.size() == 1);
  CHECK(changes[0] == std::pair<std::string, std::string>("application_name", "x"));
  CHECK(s.takeReportChanges().empty());
  s.reset("application_name", false);
  CHECK(s.get("application_name") == "psql");
  s.resetAll();
  CHECK(s.get("work_mem") == "4MB");
}

// JDBC sends the JVM's zone as a TimeZone startup parameter.
TEST_CASE("settings: a TimeZone startup parameter names a tz database zone") {
  Settings s;
  s.setSessionDefault("TimeZone", "europe/berlin");
  CHECK(s.get("TimeZone") == "Europe/Berlin");
  const NamedTimeZone* berlin = s.typeContext().namedZone;
  CHECK(berlin != nullptr);
  s.set("TimeZone", "UTC", false);
  CHECK(s.typeContext().namedZone == nullptr);
  CHECK(s.typeContext().timeZoneOffsetSeconds == 0);
  s.reset("TimeZone", false);
  CHECK(s.get("TimeZone") == "Europe/Berlin");
  CHECK(s.typeContext().namedZone == berlin);
  CHECK(codeOf([&] { s.setSessionDefault("TimeZone", "Foo/Bar"); }) == "22023");
}
