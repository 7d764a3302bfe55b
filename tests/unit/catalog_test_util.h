// What the catalog unit tests share: a call's error as "SQLSTATE message".
#pragma once
#include <functional>
#include <string>

#include "engine/error.h"

namespace duet::test {

// "no error" when `f` throws none.
inline std::string errorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const SqlError& e) {
    return e.code + " " + e.what();
  }
  return "no error";
}

}  // namespace duet::test
