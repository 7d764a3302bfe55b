// An archive's contents (docs/logging.md, "Archives"): the catalog and every row as logged
// transactions (transaction_record.h), which recovery loads with the same replay that runs
// the redo log. Nothing new to parse: DDL is SQL text generated from the catalog, rows are
// COPY text.
#pragma once
#include <functional>
#include <string>

namespace duet {

struct EngineState;

// Emits, in load order: CREATE ROLE and CREATE DATABASE for what a fresh catalog lacks;
// per database, CREATE TABLE with its keys, CREATE FUNCTION / PROCEDURE (unchecked, as
// pg_dump does: check_function_bodies = off), each table's rows as COPY records of a few
// MiB in scan order, then CREATE INDEX. Reads the engine through sessions of its own.
void dumpArchive(EngineState& state, const std::function<void(std::string record)>& emit);

}  // namespace duet
