// The per-connection protocol state machine, run on the executor thread: it decodes a batch
// of framed frontend messages, drives the Session and encodes every response into one
// output buffer. The connection runs at most one batch at a time, so the state here is only
// ever touched by one executor task at once.
#pragma once
#include <optional>
#include <string>
#include <string_view>

#include "engine/session_api.h"

namespace duet::wire {

class WireResultSink;

class MessageProcessor {
 public:
  // `batch` holds complete messages (type byte, length, body). `violation`, when set, is a
  // malformed message that followed them: it is reported as FATAL after the batch.
  // Returns true when the connection must be closed once `out` is written.
  bool process(Session& session, std::string_view batch,
               const std::optional<std::string>& violation, std::string& out);

 private:
  // Returns true when the connection must close.
  bool handle(Session& session, char type, std::string_view body, WireResultSink& sink,
              std::string& out);
  bool handleCopyMessage(Session& session, char type, std::string_view body,
                         WireResultSink& sink, std::string& out);
  void simpleQuery(Session& session, std::string_view body, WireResultSink& sink,
                   std::string& out);
  void bind(Session& session, std::string_view body);
  void describe(Session& session, std::string_view body, std::string& out);
  void execute(Session& session, std::string_view body, WireResultSink& sink, std::string& out);
  // Leaves COPY IN mode after an error and reports it (ReadyForQuery for a simple query).
  void failCopy(Session& session, const SqlError& error, std::string& out);
  // Reports an extended-protocol error and starts skipping until Sync.
  void reportExtendedError(Session& session, const SqlError& error, std::string& out);

  bool skipTillSync_ = false;
  bool copyIn_ = false;
  bool copyFromSimpleQuery_ = false;
  std::string copyData_;
};

}  // namespace duet::wire
