// SqlError: the one way every layer reports a PostgreSQL-style error. The server turns it
// into an ErrorResponse; runtime functions called from JIT-compiled code throw it too
// (C++ exceptions unwind through the generated frames).
#pragma once
#include <stdexcept>
#include <string>

namespace duet {

// SQLSTATE codes we raise, named as in PostgreSQL's errcodes.txt.
namespace sqlstate {
inline constexpr const char* kSuccessfulCompletion = "00000";
inline constexpr const char* kWarning = "01000";
inline constexpr const char* kFeatureNotSupported = "0A000";
inline constexpr const char* kCardinalityViolation = "21000";
inline constexpr const char* kStringDataRightTruncation = "22001";
inline constexpr const char* kNumericValueOutOfRange = "22003";
inline constexpr const char* kInvalidDatetimeFormat = "22007";
inline constexpr const char* kDatetimeFieldOverflow = "22008";
inline constexpr const char* kDivisionByZero = "22012";
inline constexpr const char* kInvalidParameterValue = "22023";
inline constexpr const char* kNullValueNotAllowed = "22004";
inline constexpr const char* kInvalidPrecedingOrFollowingSize = "22013";
inline constexpr const char* kInvalidArgumentForNtile = "22014";
inline constexpr const char* kInvalidArgumentForNthValue = "22016";
inline constexpr const char* kInvalidTextRepresentation = "22P02";
inline constexpr const char* kInvalidBinaryRepresentation = "22P03";
inline constexpr const char* kBadCopyFileFormat = "22P04";
inline constexpr const char* kCharacterNotInRepertoire = "22021";
inline constexpr const char* kNotNullViolation = "23502";
inline constexpr const char* kUniqueViolation = "23505";
inline constexpr const char* kForeignKeyViolation = "23503";
inline constexpr const char* kCheckViolation = "23514";
inline constexpr const char* kInvalidCursorName = "34000";
inline constexpr const char* kActiveSqlTransaction = "25001";
inline constexpr const char* kNoActiveSqlTransaction = "25P01";
inline constexpr const char* kInFailedSqlTransaction = "25P02";
inline constexpr const char* kInvalidTransactionTermination = "2D000";
inline constexpr const char* kIdleInTransactionTimeout = "25P03";
inline constexpr const char* kReadOnlySqlTransaction = "25006";
inline constexpr const char* kInvalidSqlStatementName = "26000";
inline constexpr const char* kInvalidCatalogName = "3D000";
inline constexpr const char* kInvalidSchemaName = "3F000";
inline constexpr const char* kSyntaxError = "42601";
inline constexpr const char* kObjectNotInPrerequisiteState = "55000";
inline constexpr const char* kInsufficientPrivilege = "42501";
inline constexpr const char* kUndefinedColumn = "42703";
inline constexpr const char* kUndefinedFunction = "42883";
inline constexpr const char* kUndefinedTable = "42P01";
inline constexpr const char* kUndefinedObject = "42704";
inline constexpr const char* kUndefinedParameter = "42P02";
inline constexpr const char* kDuplicateColumn = "42701";
inline constexpr const char* kDuplicateTable = "42P07";
inline constexpr const char* kDuplicateObject = "42710";
inline constexpr const char* kDuplicateAlias = "42712";
inline constexpr const char* kDuplicateDatabase = "42P04";
inline constexpr const char* kDuplicatePreparedStatement = "42P05";
inline constexpr const char* kDuplicateCursor = "42P03";
inline constexpr const char* kInvalidCursorState = "24000";
inline constexpr const char* kAmbiguousColumn = "42702";
inline constexpr const char* kAmbiguousFunction = "42725";
inline constexpr const char* kDatatypeMismatch = "42804";
inline constexpr const char* kGroupingError = "42803";
inline constexpr const char* kWindowingError = "42P20";
inline constexpr const char* kCannotCoerce = "42846";
inline constexpr const char* kInvalidColumnReference = "42P10";
inline constexpr const char* kInvalidTableDefinition = "42P16";
inline constexpr const char* kIndeterminateDatatype = "42P18";
inline constexpr const char* kWrongObjectType = "42809";
inline constexpr const char* kInvalidForeignKey = "42830";
inline constexpr const char* kDependentObjectsStillExist = "2BP01";
inline constexpr const char* kInvalidPrepStmtDef = "42P14";
inline constexpr const char* kUndefinedPstatement = "26000";
inline constexpr const char* kProtocolViolation = "08P01";
inline constexpr const char* kQueryCanceled = "57014";
inline constexpr const char* kAdminShutdown = "57P01";
inline constexpr const char* kObjectInUse = "55006";
inline constexpr const char* kLockNotAvailable = "55P03";
inline constexpr const char* kProgramLimitExceeded = "54000";
inline constexpr const char* kStatementTooComplex = "54001";
inline constexpr const char* kTooManyArguments = "54023";
inline constexpr const char* kInsufficientResources = "53000";
inline constexpr const char* kOutOfMemory = "53200";
inline constexpr const char* kInternalError = "XX000";
inline constexpr const char* kInvalidAuthorization = "28000";
}  // namespace sqlstate

class SqlError : public std::runtime_error {
 public:
  SqlError(std::string code, std::string message, std::string detail = {}, std::string hint = {}, int position = 0)
      : std::runtime_error(message),
        code(std::move(code)),
        detail(std::move(detail)),
        hint(std::move(hint)),
        position(position) {}

  std::string code;    // SQLSTATE, five characters
  std::string detail;  // may be empty
  std::string hint;    // may be empty
  int position;        // 1-based character offset into the query text, 0 if none
  // The object an integrity error is about, as PostgreSQL reports it (ErrorResponse fields
  // s, t, c, d, n); empty when not known.
  std::string schemaName, tableName, columnName, dataTypeName, constraintName;
  // Where it happened (ErrorResponse field W): the PL/pgSQL and SQL function calls it
  // passed through, innermost first, one per line; complete once set.
  std::string context;
  bool contextSet = false;
  bool fatal = false;  // the connection must be closed after reporting it
};

}  // namespace duet
