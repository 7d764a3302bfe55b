// Comparison, hashing and text formatting of stored values in their physical
// representation, as indexes and constraint messages need them. This is storage's own
// minimal set; it should give way to engine/types' compareValues/hashValue/formatText once
// those exist, so that SQL comparison and index order can never disagree.
#pragma once
#include <cstdint>
#include <string>

#include "engine/storage/layout.h"

namespace duet {

// Three-way comparison of two non-NULL values of type t at a and b.
int compareField(TypeId t, const uint8_t* a, const uint8_t* b);
// A hash consistent with compareField == 0 (1.0 and 1.00 hash alike; bpchar ignores
// trailing blanks; -0.0 and 0.0 alike).
uint64_t hashField(TypeId t, const uint8_t* v);
// The value as PostgreSQL prints it in a "Key (a)=(1)" or "Failing row contains" detail.
std::string formatField(TypeId t, const uint8_t* v);

// Whole tuples in one layout. NULL sorts after every value (PostgreSQL's default
// NULLS LAST for ascending indexes); two NULLs compare equal here.
int compareTuples(const TupleLayout& layout, const uint8_t* a, const uint8_t* b,
                  uint32_t columns);
bool tupleHasNull(const TupleLayout& layout, const uint8_t* t);
uint64_t hashTuple(const TupleLayout& layout, const uint8_t* t);
// "1, null, abc": the comma-separated values of a tuple, as in error details.
std::string formatTuple(const TupleLayout& layout, const uint8_t* t);

uint64_t mixHash(uint64_t x);

}  // namespace duet
