// Helpers the durability tests share: a scratch directory, and an engine's answers as text
// rows ("a|b|NULL").
#pragma once
#include <stdlib.h>
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "session/session_api.h"

namespace duet::test {

// A fresh directory under /tmp, removed with everything in it at the end of the test.
struct TempDir {
  std::filesystem::path path;
  explicit TempDir(const std::string& prefix = "duet-logging-test") {
    std::string name = "/tmp/" + prefix + "-XXXXXX";
    REQUIRE(::mkdtemp(name.data()) != nullptr);
    path = name;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  std::string log() const { return (path / "log").string(); }
};

struct RowsSink : IgnoringSink {
  std::vector<std::string> rows;
  void dataRow(const Field* f, size_t n) override {
    std::string line;
    for (size_t i = 0; i < n; ++i) {
      if (i) line += "|";
      line += f[i].len < 0 ? "NULL" : std::string(f[i].data, f[i].len);
    }
    rows.push_back(line);
  }
};

inline std::unique_ptr<Session> openSession(Engine& engine, const std::string& db = "postgres") {
  return engine.openSession({{"user", "postgres"}, {"database", db}});
}

// The rows of a simple Query run in a session of its own.
inline std::vector<std::string> queryRows(Engine& engine, const std::string& sql, const std::string& db = "postgres") {
  auto s = openSession(engine, db);
  RowsSink sink;
  s->simpleQuery(sql, sink);
  return sink.rows;
}

}  // namespace duet::test
