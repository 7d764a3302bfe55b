#include "session/transaction_record.h"

#include <cstring>
#include <stdexcept>

namespace duet {
namespace {

// Version 2 added the server run and the temporary objects' session, version 3 the
// transaction id and the advisory lock answers, version 4 a CALL's transaction number;
// older records (without them) still read.
constexpr uint8_t kVersion = 4;

class Writer {
 public:
  void u8(uint8_t v) { out_.push_back(static_cast<char>(v)); }
  void u32(uint32_t v) { raw(&v, 4); }
  void u64(uint64_t v) { raw(&v, 8); }
  void str(std::string_view s) {
    u32(static_cast<uint32_t>(s.size()));
    out_.append(s);
  }
  void optStr(const std::optional<std::string>& s) {
    u8(s ? 1 : 0);
    if (s) str(*s);
  }
  std::string take() { return std::move(out_); }

 private:
  void raw(const void* p, size_t n) { out_.append(static_cast<const char*>(p), n); }  // little-endian hosts
  std::string out_;
};

class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}
  uint8_t u8() { return static_cast<uint8_t>(take(1)[0]); }
  uint32_t u32() { return fixed<uint32_t>(); }
  uint64_t u64() { return fixed<uint64_t>(); }
  std::string str() { return std::string(take(u32())); }
  std::optional<std::string> optStr() {
    if (u8() == 0) return std::nullopt;
    return str();
  }
  bool done() const { return in_.empty(); }

 private:
  template <typename T>
  T fixed() {
    T v;
    std::memcpy(&v, take(sizeof v).data(), sizeof v);
    return v;
  }
  std::string_view take(size_t n) {
    if (n > in_.size()) throw std::runtime_error("transaction record is cut short");
    std::string_view part = in_.substr(0, n);
    in_.remove_prefix(n);
    return part;
  }
  std::string_view in_;
};

}  // namespace

std::string encodeTransaction(const LoggedTransaction& t) {
  Writer w;
  w.u8(kVersion);
  w.str(t.database);
  w.str(t.user);
  w.u64(static_cast<uint64_t>(t.startTimestamp));
  w.u32(static_cast<uint32_t>(t.statements.size()));
  for (const LoggedStatement& s : t.statements) {
    w.str(s.sql);
    w.u32(static_cast<uint32_t>(s.paramTypeOids.size()));
    for (uint32_t oid : s.paramTypeOids) w.u32(oid);
    w.u32(static_cast<uint32_t>(s.params.size()));
    for (const auto& p : s.params) w.optStr(p);
    w.u32(static_cast<uint32_t>(s.settings.size()));
    for (const auto& [name, value] : s.settings) {
      w.str(name);
      w.str(value);
    }
    w.u64(static_cast<uint64_t>(s.statementTimestamp));
    w.u64(s.randomState);
    w.u32(static_cast<uint32_t>(s.clockOffsets.size()));
    for (int64_t o : s.clockOffsets) w.u64(static_cast<uint64_t>(o));
    w.optStr(s.copyData);
  }
  w.u64(static_cast<uint64_t>(t.serverStart));
  w.u64(t.tempSession);
  w.str(t.tempSchema);
  w.u64(t.transactionId);
  for (const LoggedStatement& s : t.statements) {
    w.u32(static_cast<uint32_t>(s.lockOutcomes.size()));
    for (bool granted : s.lockOutcomes) w.u8(granted ? 1 : 0);
  }
  w.u32(t.callTransaction);
  w.u8(t.callEnded ? 1 : 0);
  return w.take();
}

LoggedTransaction decodeTransaction(std::string_view bytes) {
  Reader r(bytes);
  uint8_t version = r.u8();
  if (version < 1 || version > kVersion) throw std::runtime_error("transaction record of an unknown version");
  LoggedTransaction t;
  t.database = r.str();
  t.user = r.str();
  t.startTimestamp = static_cast<int64_t>(r.u64());
  uint32_t n = r.u32();
  for (uint32_t i = 0; i < n; ++i) {
    LoggedStatement s;
    s.sql = r.str();
    for (uint32_t k = r.u32(); k > 0; --k) s.paramTypeOids.push_back(r.u32());
    for (uint32_t k = r.u32(); k > 0; --k) s.params.push_back(r.optStr());
    for (uint32_t k = r.u32(); k > 0; --k) {
      std::string name = r.str();
      s.settings.emplace_back(std::move(name), r.str());
    }
    s.statementTimestamp = static_cast<int64_t>(r.u64());
    s.randomState = r.u64();
    for (uint32_t k = r.u32(); k > 0; --k) s.clockOffsets.push_back(static_cast<int64_t>(r.u64()));
    s.copyData = r.optStr();
    t.statements.push_back(std::move(s));
  }
  if (version >= 2) {
    t.serverStart = static_cast<int64_t>(r.u64());
    t.tempSession = r.u64();
    t.tempSchema = r.str();
  }
  if (version >= 3) {
    t.transactionId = r.u64();
    for (LoggedStatement& s : t.statements)
      for (uint32_t k = r.u32(); k > 0; --k) s.lockOutcomes.push_back(r.u8() != 0);
  }
  if (version >= 4) {
    t.callTransaction = r.u32();
    t.callEnded = r.u8() != 0;
  }
  if (!r.done()) throw std::runtime_error("transaction record has trailing bytes");
  return t;
}

}  // namespace duet
