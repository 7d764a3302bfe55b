// The ResultSink the executor fills: it encodes each call straight into the connection's
// output buffer as the matching backend message. A snapshot process's sink derives from it
// to send its buffer out as rows pile up.
#pragma once
#include <string>

#include "session/session_api.h"

namespace duet::wire {

class WireResultSink : public ResultSink {
 public:
  explicit WireResultSink(std::string& out) : out_(out) {}

  void rowDescription(const std::vector<ColumnDesc>& columns) override;
  void dataRow(const Field* fields, size_t count) override;
  void commandComplete(std::string_view tag) override;
  void emptyQuery() override;
  void notice(const Notice& notice) override;
  void parameterStatus(std::string_view name, std::string_view value) override;
  void copyOutBegin(int columns, bool binary) override;
  void copyData(std::string_view bytes) override;
  void copyOutDone() override;
  void copyInBegin(int columns, bool binary) override;

  // True once the engine asked for COPY FROM STDIN data (cleared by the reader).
  bool takeCopyInStarted() {
    bool started = copyInStarted_;
    copyInStarted_ = false;
    return started;
  }

 private:
  std::string& out_;
  bool copyInStarted_ = false;
};

}  // namespace duet::wire
