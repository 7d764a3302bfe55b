#include "wire/wire_result_sink.h"

#include "engine/limits/statement_memory.h"
#include "wire/backend_messages.h"
#include "wire/wire_writer.h"

namespace duet::wire {

void WireResultSink::rowDescription(const std::vector<ColumnDesc>& columns) { writeRowDescription(out_, columns); }

void WireResultSink::dataRow(const Field* fields, size_t count) {
  // Reserve once so a row is one growth at most, not one per field.
  size_t size = 7;
  for (size_t i = 0; i < count; ++i) size += 4 + (fields[i].len > 0 ? fields[i].len : 0);
  chargeAnswerMemory(size);  // the answer waits here until the message is done (53200)
  out_.reserve(out_.size() + size);
  WireWriter w(out_);
  w.begin('D');
  w.int16(static_cast<int16_t>(count));
  for (size_t i = 0; i < count; ++i) {
    w.int32(fields[i].len);
    if (fields[i].len > 0) w.bytes(fields[i].data, static_cast<size_t>(fields[i].len));
  }
  w.end();
}

void WireResultSink::commandComplete(std::string_view tag) {
  WireWriter w(out_);
  w.begin('C');
  w.cstr(tag);
  w.end();
}

void WireResultSink::emptyQuery() { writeEmpty(out_, 'I'); }

void WireResultSink::notice(const Notice& notice) { writeNotice(out_, notice); }

void WireResultSink::parameterStatus(std::string_view name, std::string_view value) {
  writeParameterStatus(out_, name, value);
}

void WireResultSink::copyOutBegin(int columns, bool binary) { writeCopyResponse(out_, 'H', columns, binary); }

void WireResultSink::copyData(std::string_view bytes) {
  chargeAnswerMemory(5 + bytes.size());
  WireWriter w(out_);
  w.begin('d');
  w.bytes(bytes.data(), bytes.size());
  w.end();
}

void WireResultSink::copyOutDone() { writeEmpty(out_, 'c'); }

void WireResultSink::copyInBegin(int columns, bool binary) {
  writeCopyResponse(out_, 'G', columns, binary);
  copyInStarted_ = true;
}

}  // namespace duet::wire
