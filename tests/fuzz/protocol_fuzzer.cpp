// libFuzzer target over the frontend side of the wire protocol (tests/fuzz/README.md).
//
// One input is what one client sends after its startup packet. It goes through the code
// that a real connection runs, minus the socket: scanMessages() frames it as
// Connection::submitBatch() does (complete messages, then the first malformed one as a
// violation), and MessageProcessor::process() - the executor-side protocol state machine -
// decodes every message and drives a real SqlSession of a real SQL engine, so statements
// are parsed, planned, JIT-compiled and run. Each input gets a fresh engine (a fresh
// catalog), so a crash reproduces from its input file alone. The same bytes also go to
// parseStartupPacket(), the other decoder on the network side.
//
// What is left out, and why: Connection itself needs a socket and Boost.Asio's strand, and
// what it adds on top of these two functions is I/O (reads, writes, backpressure, drain,
// snapshot answer streaming) rather than decoding. Snapshots (fork()ed processes) and the
// redo log are off, as in the in-process tests.
//
// Known open engine bugs (tests/fuzz/known_open.txt): an input whose Query or Parse text
// matches one of the file's patterns is rejected before it runs (return -1: not kept in
// the corpus either), so that the short CI run stays green while they are open. Set
// DUET_FUZZ_KNOWN_OPEN=/dev/null to run everything, or to another file.
#include <regex.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "server/message_processor.h"
#include "session/sql_engine.h"
#include "wire/frontend_framing.h"
#include "wire/message_reader.h"

#ifndef DUET_FUZZ_DEFAULT_KNOWN_OPEN
#define DUET_FUZZ_DEFAULT_KNOWN_OPEN ""
#endif

namespace {

struct KnownOpen {
  std::string id;
  std::string where;  // "simple" (Query messages), "extended" (Parse messages) or "any"
  regex_t pattern;
  int count = 1;  // "N x regex": at least N non-overlapping matches
};

std::vector<KnownOpen>* knownOpen = nullptr;

// Lines "ID | simple|extended|any | [N x ]POSIX extended regex | what it is"; '#' starts a
// comment (tests/fuzz/README.md).
void loadKnownOpen() {
  knownOpen = new std::vector<KnownOpen>();
  const char* env = std::getenv("DUET_FUZZ_KNOWN_OPEN");
  std::string path = env ? env : DUET_FUZZ_DEFAULT_KNOWN_OPEN;
  if (path.empty()) return;
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "protocol_fuzzer: cannot read known-open list %s\n", path.c_str());
    std::exit(2);
  }
  std::string line;
  auto trim = [](std::string s) {
    size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t\r");
    return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
  };
  while (std::getline(in, line)) {
    if (trim(line).empty() || trim(line)[0] == '#') continue;
    // The regex may hold '|': only the first two and the last separator split.
    size_t first = line.find(" | ");
    size_t second = first == std::string::npos ? first : line.find(" | ", first + 3);
    size_t last = line.rfind(" | ");
    if (second == std::string::npos || last <= second) {
      std::fprintf(stderr, "protocol_fuzzer: malformed known-open line: %s\n", line.c_str());
      std::exit(2);
    }
    KnownOpen k;
    k.id = trim(line.substr(0, first));
    k.where = trim(line.substr(first + 3, second - first - 3));
    std::string re = trim(line.substr(second + 3, last - second - 3));
    if (size_t x = re.find(" x "); x != std::string::npos && x > 0 && re.find_first_not_of("0123456789") == x) {
      k.count = std::stoi(re.substr(0, x));
      re = re.substr(x + 3);
    }
    if (regcomp(&k.pattern, re.c_str(), REG_EXTENDED | REG_ICASE) != 0) {
      std::fprintf(stderr, "protocol_fuzzer: bad regex in known-open line: %s\n", line.c_str());
      std::exit(2);
    }
    knownOpen->push_back(std::move(k));
  }
  std::fprintf(stderr, "protocol_fuzzer: %zu known-open patterns from %s\n", knownOpen->size(), path.c_str());
}

bool matchesKnownOpen(std::string_view sql, bool simpleQuery) {
  if (knownOpen->empty()) return false;
  std::string text(sql);  // regexec needs a NUL-terminated string
  for (const auto& k : *knownOpen) {
    if ((k.where == "simple" && !simpleQuery) || (k.where == "extended" && simpleQuery)) continue;
    int found = 0;
    for (const char* at = text.c_str(); found < k.count;) {
      regmatch_t m;
      if (regexec(&k.pattern, at, 1, &m, at == text.c_str() ? 0 : REG_NOTBOL) != 0) break;
      ++found;
      at += m.rm_eo > 0 ? m.rm_eo : 1;
      if (at > text.c_str() + text.size()) break;
    }
    if (found >= k.count) return true;
  }
  return false;
}

// True when a Query or Parse message among the complete ones holds known-open SQL.
bool touchesKnownOpen(std::string_view input) {
  size_t complete = duet::wire::scanMessages(input).completeBytes;
  for (size_t at = 0; at + 5 <= complete;) {
    char type = input[at];
    uint32_t length = duet::wire::readLength(input.data() + at + 1);
    std::string_view body = input.substr(at + 5, length - 4);
    at += 1 + length;
    try {
      duet::wire::MessageReader r(body);
      if (type == 'Q' && matchesKnownOpen(r.cstr(), true)) return true;
      if (type == 'P') {
        r.cstr();
        if (matchesKnownOpen(r.cstr(), false)) return true;
      }
    } catch (const duet::SqlError&) {
      // Malformed: the processor reports it; nothing to match.
    }
  }
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  loadKnownOpen();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);

  // The startup decoder, on the same bytes (it is pure: nothing to set up).
  duet::wire::StartupPacket startup = duet::wire::parseStartupPacket(bytes);
  (void)startup;

  if (touchesKnownOpen(bytes)) return -1;

  duet::EngineConfig config;
  config.dataDir = "/nonexistent/duet-protocol-fuzzer";  // the engine never writes there
  config.idleInTransactionTimeoutMs = 0;
  config.snapshots = false;
  std::unique_ptr<duet::Engine> engine = duet::createSqlEngine(config);
  std::unique_ptr<duet::Session> session;
  try {
    // One tier: the engine goes after each input, and would wait for the optimised one.
    session = engine->openSession({{"user", "postgres"}, {"database", "postgres"}, {"duet.compile_tier", "optimized"}});
  } catch (...) {
    std::abort();  // the default database must always open
  }

  // Connection's loop, without the socket: frame what is complete, hand it to the
  // processor as one batch (a malformed message after it is the batch's violation), go on
  // with the rest until the processor closes the connection or nothing complete is left.
  duet::wire::MessageProcessor processor;
  std::string input(bytes);
  for (;;) {
    duet::wire::FrameScan scan = duet::wire::scanMessages(input);
    if (scan.completeBytes == 0 && !scan.violation) break;
    std::string batch = input.substr(0, scan.completeBytes);
    input.erase(0, scan.completeBytes);
    session->clearCancel();
    std::string out;
    std::optional<duet::wire::SnapshotHandoff> handoff;
    std::optional<duet::wire::MessageProcessor::Rest> rest;
    bool close = processor.process(*session, batch, scan.violation, out, nullptr, handoff, rest);
    // No snapshots and no other session: neither may happen here.
    if (handoff || (rest && rest->waitsForBlock)) std::abort();
    if (close || scan.violation) break;
    // A batch that ended after a large answer: the connection runs the rest next.
    if (rest) input.insert(0, batch.substr(rest->at));
  }
  // The connection's cleanup task.
  session->requestCancel();
  session->rollbackOpenBlock();
  session.reset();
  engine.reset();
  return 0;
}
