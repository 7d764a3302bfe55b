// DUET_INVARIANT(condition, what): a fact that code relies on without checking it again -
// above all what generated code takes for granted: tuple layouts (every field inside the
// tuple and aligned), chunk sizes, the offsets of the structures it reads. Checked in every
// build where it is cheap (while code is generated, not per row). A violation is a bug in
// DuetDB: the statement stops with XX000 naming the invariant, file and line, before the
// code that relies on it runs, and the server and every other session go on. Where the
// fact is known at compile time, a static_assert states it instead.
#pragma once

namespace duet {

[[noreturn]] void failInvariant(const char* what, const char* file, int line);

}  // namespace duet

#define DUET_INVARIANT(condition, what)                                  \
  do {                                                                   \
    if (!(condition)) ::duet::failInvariant((what), __FILE__, __LINE__); \
  } while (false)
