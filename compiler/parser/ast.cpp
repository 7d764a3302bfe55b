// Out-of-line destructors for nodes that own a SelectStmt, which ast_expr.h only declares.
#include "compiler/parser/ast.h"

namespace duet::sql {

SubLink::~SubLink() = default;
RangeSubquery::~RangeSubquery() = default;

}  // namespace duet::sql
