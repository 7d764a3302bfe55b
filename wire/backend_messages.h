// Encoders for the backend messages the connection sends outside a ResultSink: errors,
// startup replies, ReadyForQuery and the extended-protocol acknowledgements.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "session/session_api.h"

namespace duet::wire {

// ErrorResponse; severity "ERROR" or "FATAL" (SqlError::fatal decides at the call site).
void writeError(std::string& out, const SqlError& error, std::string_view severity);
void writeNotice(std::string& out, const Notice& notice);
void writeReadyForQuery(std::string& out, TxnStatus status);
// NotificationResponse 'A': a NOTIFY the session listened for.
void writeNotification(std::string& out, const Notification& notification);
void writeAuthenticationOk(std::string& out);
void writeParameterStatus(std::string& out, std::string_view name, std::string_view value);
void writeBackendKeyData(std::string& out, int32_t pid, int32_t secret);
// NegotiateProtocolVersion: the newest 3.x minor we speak, and options we did not know.
void writeNegotiateProtocolVersion(std::string& out, int32_t minor, const std::vector<std::string>& unknownOptions);
void writeRowDescription(std::string& out, const std::vector<ColumnDesc>& columns);
void writeParameterDescription(std::string& out, const std::vector<uint32_t>& typeOids);
// Messages with an empty body: ParseComplete '1', BindComplete '2', CloseComplete '3',
// NoData 'n', PortalSuspended 's', EmptyQueryResponse 'I', CopyDone 'c'.
void writeEmpty(std::string& out, char type);
// CopyInResponse 'G' / CopyOutResponse 'H', every column in text format or every one in binary.
void writeCopyResponse(std::string& out, char type, int columns, bool binary);

}  // namespace duet::wire
