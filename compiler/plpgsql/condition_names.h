// PL/pgSQL's exception condition names (division_by_zero, unique_violation, ...).
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace duet::plpgsql {

// The SQLSTATEs a condition name stands for (a few names, such as
// string_data_right_truncation, name two); empty when the name is unknown. "others" is
// not a condition name here: the parser handles it.
std::vector<std::string> conditionSqlstates(std::string_view name);

}  // namespace duet::plpgsql
