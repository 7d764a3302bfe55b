#include "wire/backend_messages.h"

#include <string>

#include "wire/wire_writer.h"

namespace duet::wire {

namespace {
void field(WireWriter& w, char code, std::string_view value) {
  if (value.empty()) return;
  w.byte(code);
  w.cstr(value);
}
}  // namespace

void writeError(std::string& out, const SqlError& error, std::string_view severity) {
  WireWriter w(out);
  w.begin('E');
  field(w, 'S', severity);
  field(w, 'V', severity);
  field(w, 'C', error.code);
  field(w, 'M', error.what());
  field(w, 'D', error.detail);
  field(w, 'H', error.hint);
  if (error.position > 0) field(w, 'P', std::to_string(error.position));
  field(w, 'W', error.context);
  field(w, 's', error.schemaName);
  field(w, 't', error.tableName);
  field(w, 'c', error.columnName);
  field(w, 'd', error.dataTypeName);
  field(w, 'n', error.constraintName);
  w.byte('\0');
  w.end();
}

void writeNotice(std::string& out, const Notice& notice) {
  WireWriter w(out);
  w.begin('N');
  field(w, 'S', notice.severity);
  field(w, 'V', notice.severity);
  field(w, 'C', notice.code);
  field(w, 'M', notice.message);
  field(w, 'D', notice.detail);
  field(w, 'H', notice.hint);
  w.byte('\0');
  w.end();
}

void writeReadyForQuery(std::string& out, TxnStatus status) {
  WireWriter w(out);
  w.begin('Z');
  w.byte(static_cast<char>(status));
  w.end();
}

void writeNotification(std::string& out, const Notification& notification) {
  WireWriter w(out);
  w.begin('A');
  w.int32(notification.pid);
  w.cstr(notification.channel);
  w.cstr(notification.payload);
  w.end();
}

void writeAuthenticationOk(std::string& out) {
  WireWriter w(out);
  w.begin('R');
  w.int32(0);
  w.end();
}

void writeParameterStatus(std::string& out, std::string_view name, std::string_view value) {
  WireWriter w(out);
  w.begin('S');
  w.cstr(name);
  w.cstr(value);
  w.end();
}

void writeBackendKeyData(std::string& out, int32_t pid, int32_t secret) {
  WireWriter w(out);
  w.begin('K');
  w.int32(pid);
  w.int32(secret);
  w.end();
}

void writeNegotiateProtocolVersion(std::string& out, int32_t minor, const std::vector<std::string>& unknownOptions) {
  WireWriter w(out);
  w.begin('v');
  w.int32(minor);
  w.int32(static_cast<int32_t>(unknownOptions.size()));
  for (const auto& option : unknownOptions) w.cstr(option);
  w.end();
}

void writeRowDescription(std::string& out, const std::vector<ColumnDesc>& columns) {
  WireWriter w(out);
  w.begin('T');
  w.int16(static_cast<int16_t>(columns.size()));
  for (const auto& c : columns) {
    w.cstr(c.name);
    w.int32(static_cast<int32_t>(c.tableOid));
    w.int16(c.attnum);
    w.int32(static_cast<int32_t>(c.typeOid));
    w.int16(c.typlen);
    w.int32(c.typmod);
    w.int16(c.format);
  }
  w.end();
}

void writeParameterDescription(std::string& out, const std::vector<uint32_t>& typeOids) {
  WireWriter w(out);
  w.begin('t');
  w.int16(static_cast<int16_t>(typeOids.size()));
  for (uint32_t oid : typeOids) w.int32(static_cast<int32_t>(oid));
  w.end();
}

void writeEmpty(std::string& out, char type) {
  WireWriter w(out);
  w.begin(type);
  w.end();
}

void writeCopyResponse(std::string& out, char type, int columns, bool binary) {
  WireWriter w(out);
  w.begin(type);
  w.byte(binary ? 1 : 0);  // overall format
  w.int16(static_cast<int16_t>(columns));
  for (int i = 0; i < columns; ++i) w.int16(binary ? 1 : 0);
  w.end();
}

}  // namespace duet::wire
