// information_schema's rows (system_rows.h), as PostgreSQL 15's information_schema.sql
// derives them from its catalogs.
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "engine/catalog/builtin_types.h"
#include "engine/catalog/system_rows.h"
#include "engine/types/interval.h"

namespace duet {
namespace {

using Row = SystemRow;
const SystemValue kNull{};
constexpr int64_t kMaxStringOctets = 1073741824;  // what PostgreSQL reports for unbounded strings

std::string yesNo(bool b) { return b ? "YES" : "NO"; }

SystemValue count(int64_t n) { return n; }

// The columns every information_schema view describes a type with: data_type,
// character_maximum_length, character_octet_length, numeric_precision,
// numeric_precision_radix, numeric_scale, datetime_precision, interval_type, and the udt
// (the type's own name in pg_catalog: int4, _text).
struct TypeColumns {
  std::string dataType;
  SystemValue maxLength, octetLength, precision, radix, scale, datetimePrecision, intervalType;
  std::string udtName;
};

TypeColumns typeColumns(SqlType t) {
  TypeColumns c;
  c.udtName = std::string(builtinTypeOf(t).name);
  if (t.isArray()) {
    c.dataType = "ARRAY";
    return c;
  }
  c.dataType = typeName(t.withoutTypmod());
  if (t.alias != TypeAlias::None) return c;
  switch (t.id) {
    case TypeId::Char:
    case TypeId::Varchar:
    case TypeId::Text:
      if (t.id != TypeId::Text && t.typmod >= 0) {
        c.maxLength = count(t.charLength());
        c.octetLength = count(int64_t{t.charLength()} * 4);
      } else {
        c.octetLength = count(kMaxStringOctets);
      }
      break;
    case TypeId::Int2:
    case TypeId::Int4:
    case TypeId::Int8:
      c.precision = count(t.id == TypeId::Int2 ? 16 : t.id == TypeId::Int4 ? 32 : 64);
      c.radix = count(2);
      c.scale = count(0);
      break;
    case TypeId::Float4:
    case TypeId::Float8:
      c.precision = count(t.id == TypeId::Float4 ? 24 : 53);
      c.radix = count(2);
      break;
    case TypeId::Numeric:
      c.radix = count(10);
      if (t.typmod >= 0) {
        c.precision = count(t.numericPrecision());
        c.scale = count(t.numericScale());
      }
      break;
    case TypeId::Date: c.datetimePrecision = count(0); break;
    case TypeId::Timestamp:
    case TypeId::TimestampTz: c.datetimePrecision = count(t.typmod >= 0 ? t.typmod : 6); break;
    case TypeId::Interval: {
      int precision = t.typmod < 0 ? interval_field::kFullPrecision : t.typmod & 0xFFFF;
      c.datetimePrecision = count(precision == interval_field::kFullPrecision ? 6 : precision);
      int fields = t.typmod < 0 ? interval_field::kFullRange : (t.typmod >> 16) & 0x7FFF;
      if (fields != interval_field::kFullRange) {
        std::string text = intervalTypmodText(t.typmod);  // " day to second(3)"
        std::string upper;
        for (char ch : text.substr(1, text.find('(') == std::string::npos ? std::string::npos : text.find('(') - 1))
          upper += static_cast<char>(ch >= 'a' && ch <= 'z' ? ch - 'a' + 'A' : ch);
        c.intervalType = upper;
      }
      break;
    }
    default: break;
  }
  return c;
}

// A NOT NULL column's check constraint, as PostgreSQL 15's information_schema names it.
std::string notNullName(const Schema& s, const TableInfo& t, size_t column) {
  return fmt::format("{}_{}_{}_not_null", s.oid, t.oid, column + 1);
}

std::string specificName(const RoutineInfo& r) { return fmt::format("{}_{}", r.name, r.oid); }

SqlType scalarType(const RoutineType& t) { return t.sqlType(); }

}  // namespace

std::vector<SystemRow> fillSchemata(const Catalog&, const Database& db) {
  std::vector<Row> rows;
  forEachSchema(db, [&](const Schema& s) {
    std::string owner = s.name == "public" ? "pg_database_owner" : "postgres";
    rows.push_back({db.name, s.name, owner, kNull, kNull, kNull, kNull});
  });
  return rows;
}

std::vector<SystemRow> fillInfoTables(const Catalog&, const Database& db) {
  std::vector<Row> rows;
  forEachSchema(db, [&](const Schema& s) {
    for (const auto& [name, t] : s.tables) {
      bool view = t->systemView && findSystemRelation(s.name, name)->isView;
      std::string type = view ? "VIEW" : s.temporary() ? "LOCAL TEMPORARY" : "BASE TABLE";
      rows.push_back({db.name, s.name, name, type, kNull, kNull, kNull, kNull, kNull, yesNo(!t->systemView),
                      std::string("NO"), kNull});
    }
    for (const auto& [name, v] : s.views)
      rows.push_back({db.name, s.name, name, std::string("VIEW"), kNull, kNull, kNull, kNull, kNull, std::string("NO"),
                      std::string("NO"), kNull});
  });
  return rows;
}

std::vector<SystemRow> fillInfoColumns(const Catalog&, const Database& db) {
  std::vector<Row> rows;
  auto add = [&](const Schema& s, const std::string& table, const ColumnDef& col, size_t i, bool updatable,
                 const SequenceInfo* identity) {
    TypeColumns c = typeColumns(col.type);
    SystemValue def = col.defaultSql.empty() || identity ? kNull : SystemValue(col.defaultSql);
    auto identityValue = [&](int64_t v) { return identity ? SystemValue(std::to_string(v)) : kNull; };
    rows.push_back({db.name,
                    s.name,
                    table,
                    col.name,
                    count(static_cast<int64_t>(i + 1)),
                    def,
                    yesNo(!col.notNull),
                    c.dataType,
                    c.maxLength,
                    c.octetLength,
                    c.precision,
                    c.radix,
                    c.scale,
                    c.datetimePrecision,
                    c.intervalType,
                    kNull,
                    kNull,
                    kNull,
                    kNull,
                    kNull,
                    kNull,
                    kNull,
                    kNull,
                    kNull,
                    kNull,
                    db.name,
                    std::string("pg_catalog"),
                    c.udtName,
                    kNull,
                    kNull,
                    kNull,
                    kNull,
                    std::to_string(i + 1),
                    std::string("NO"),
                    yesNo(identity),
                    identity ? SystemValue(std::string(col.identity == 'a' ? "ALWAYS" : "BY DEFAULT")) : kNull,
                    identityValue(identity ? identity->start : 0),
                    identityValue(identity ? identity->increment : 0),
                    identityValue(identity ? identity->maxValue : 0),
                    identityValue(identity ? identity->minValue : 0),
                    yesNo(identity && identity->cycle),
                    std::string("NEVER"),
                    kNull,
                    yesNo(updatable)});
  };
  forEachSchema(db, [&](const Schema& s) {
    for (const auto& [name, t] : s.tables)
      for (size_t i = 0; i < t->columns.size(); ++i)
        add(s, name, t->columns[i], i, !t->systemView,
            t->columns[i].identity ? identitySequence(db, *t, t->columns[i].name) : nullptr);
    for (const auto& [name, v] : s.views)
      for (size_t i = 0; i < v->columns.size(); ++i) add(s, name, v->columns[i], i, false, nullptr);
  });
  return rows;
}

std::vector<SystemRow> fillInfoViews(const Catalog&, const Database& db) {
  std::vector<Row> rows;
  forEachSchema(db, [&](const Schema& s) {
    for (const auto& [name, v] : s.views)
      rows.push_back({db.name, s.name, name, viewDefinition(*v), std::string("NONE"), std::string("NO"),
                      std::string("NO"), std::string("NO"), std::string("NO"), std::string("NO")});
  });
  return rows;
}

std::vector<SystemRow> fillTableConstraints(const Catalog&, const Database& db) {
  std::vector<Row> rows;
  forEachConstraint(db, [&](const ConstraintView& c) {
    static const std::map<char, std::string> kTypes = {
        {'p', "PRIMARY KEY"}, {'u', "UNIQUE"}, {'c', "CHECK"}, {'f', "FOREIGN KEY"}};
    const ForeignKey* fk = c.foreignKey;
    rows.push_back({db.name, c.schema->name, *c.name, db.name, c.schema->name, c.table->name, kTypes.at(c.type),
                    yesNo(fk && fk->deferrable), yesNo(fk && fk->initiallyDeferred), std::string("YES"),
                    c.index ? SystemValue(std::string("YES")) : kNull});
  });
  forEachSchema(db, [&](const Schema& s) {
    for (const auto& [name, t] : s.tables) {
      if (t->systemView) continue;
      for (size_t c = 0; c < t->columns.size(); ++c)
        if (t->columns[c].notNull)
          rows.push_back({db.name, s.name, notNullName(s, *t, c), db.name, s.name, name, std::string("CHECK"),
                          std::string("NO"), std::string("NO"), std::string("YES"), kNull});
    }
  });
  return rows;
}

std::vector<SystemRow> fillKeyColumnUsage(const Catalog&, const Database& db) {
  std::vector<Row> rows;
  forEachConstraint(db, [&](const ConstraintView& c) {
    if (c.type == 'c') return;
    for (size_t k = 0; k < c.columns.size(); ++k) {
      // A foreign key column's place in the referenced key.
      SystemValue position = kNull;
      if (c.foreignKey && c.referencedKey) {
        const std::vector<uint32_t>& key = c.referencedKey->columns;
        auto at = std::find(key.begin(), key.end(), c.foreignKey->refColumns[k]);
        position = count(static_cast<int64_t>(at - key.begin()) + 1);
      }
      rows.push_back({db.name, c.schema->name, *c.name, db.name, c.schema->name, c.table->name,
                      c.table->columns[c.columns[k]].name, count(static_cast<int64_t>(k + 1)), position});
    }
  });
  return rows;
}

std::vector<SystemRow> fillConstraintColumnUsage(const Catalog&, const Database& db) {
  std::vector<Row> rows;
  forEachConstraint(db, [&](const ConstraintView& c) {
    // A foreign key uses the referenced columns; the others their own table's.
    const TableInfo* t = c.foreignKey ? c.referenced : c.table;
    const std::vector<uint32_t>& columns = c.foreignKey ? c.foreignKey->refColumns : c.columns;
    if (!t) return;
    for (uint32_t col : columns)
      rows.push_back({db.name, t->schema->name, t->name, t->columns[col].name, db.name, c.schema->name, *c.name});
  });
  return rows;
}

std::vector<SystemRow> fillCheckConstraints(const Catalog&, const Database& db) {
  std::vector<Row> rows;
  forEachSchema(db, [&](const Schema& s) {
    for (const auto& [name, t] : s.tables) {
      if (t->systemView) continue;
      for (size_t c = 0; c < t->columns.size(); ++c)
        if (t->columns[c].notNull)
          rows.push_back({db.name, s.name, notNullName(s, *t, c), t->columns[c].name + " IS NOT NULL"});
    }
  });
  forEachConstraint(db, [&](const ConstraintView& c) {
    // PostgreSQL's view takes pg_get_constraintdef from its 7th character: ((a > 0)).
    if (c.check) rows.push_back({db.name, c.schema->name, *c.name, constraintDefinition(c, false, false).substr(6)});
  });
  return rows;
}

std::vector<SystemRow> fillReferentialConstraints(const Catalog&, const Database& db) {
  std::vector<Row> rows;
  forEachConstraint(db, [&](const ConstraintView& c) {
    if (!c.foreignKey) return;
    const ForeignKey& fk = *c.foreignKey;
    SystemValue keySchema = c.referencedKey ? SystemValue(c.referenced->schema->name) : kNull;
    SystemValue keyName = c.referencedKey ? SystemValue(c.referencedKey->name) : kNull;
    rows.push_back({db.name, c.schema->name, *c.name, db.name, keySchema, keyName,
                    std::string(fk.match == fk_match::kFull ? "FULL" : "NONE"), referentialRule(fk.onUpdate),
                    referentialRule(fk.onDelete)});
  });
  return rows;
}

std::vector<SystemRow> fillRoutines(const Catalog&, const Database& db) {
  std::vector<Row> rows;
  forEachSchema(db, [&](const Schema& s) {
    for (const auto& [name, overloads] : s.routines)
      for (const auto& r : overloads) {
        bool procedure = r->kind == RoutineKind::Procedure;
        bool scalar = !procedure && r->returnType.kind == RoutineType::Kind::Scalar;
        TypeColumns c = scalar ? typeColumns(scalarType(r->returnType)) : TypeColumns{};
        SystemValue dataType = procedure                                       ? kNull
                               : scalar                                        ? SystemValue(c.dataType)
                               : r->returnType.kind == RoutineType::Kind::Void ? SystemValue(std::string("void"))
                                                                               : SystemValue(std::string("record"));
        bool sql = r->language == RoutineLanguage::Sql;
        Row row(84, kNull);
        row[0] = db.name;
        row[1] = s.name;
        row[2] = specificName(*r);
        row[3] = db.name;
        row[4] = s.name;
        row[5] = name;
        row[6] = std::string(procedure ? "PROCEDURE" : "FUNCTION");
        row[13] = dataType;
        if (scalar) {
          row[28] = db.name;
          row[29] = std::string("pg_catalog");
          row[30] = c.udtName;
        }
        if (!procedure) row[35] = std::string("0");
        row[36] = std::string(sql ? "SQL" : "EXTERNAL");
        row[37] = r->body;
        row[39] = std::string(sql ? "SQL" : "PLPGSQL");
        row[40] = std::string("GENERAL");
        row[41] = yesNo(r->volatility == Volatility::Immutable);
        row[42] = std::string("MODIFIES");
        row[43] = procedure ? kNull : SystemValue(yesNo(r->strict));
        row[45] = std::string("YES");
        row[46] = count(0);
        row[47] = std::string("NO");
        row[49] = std::string(r->securityDefiner ? "DEFINER" : "INVOKER");
        row[53] = std::string("NO");
        row[57] = std::string("NO");
        rows.push_back(std::move(row));
      }
  });
  return rows;
}

std::vector<SystemRow> fillParameters(const Catalog&, const Database& db) {
  std::vector<Row> rows;
  forEachSchema(db, [&](const Schema& s) {
    for (const auto& [name, overloads] : s.routines)
      for (const auto& r : overloads)
        for (size_t i = 0; i < r->params.size(); ++i) {
          const RoutineParamInfo& p = r->params[i];
          static const char* const kModes[] = {"IN", "OUT", "INOUT", "IN", "OUT"};
          bool scalar = p.type.kind == RoutineType::Kind::Scalar;
          TypeColumns c = scalar ? typeColumns(scalarType(p.type)) : TypeColumns{};
          Row row(32, kNull);
          row[0] = db.name;
          row[1] = s.name;
          row[2] = specificName(*r);
          row[3] = count(static_cast<int64_t>(i + 1));
          row[4] = std::string(kModes[static_cast<int>(p.mode)]);
          row[5] = std::string("NO");
          row[6] = std::string("NO");
          if (!p.name.empty()) row[7] = p.name;
          row[8] = scalar ? c.dataType : routineTypeName(p.type);
          if (scalar) {
            row[23] = db.name;
            row[24] = std::string("pg_catalog");
            row[25] = c.udtName;
          }
          row[30] = std::to_string(i + 1);
          if (!p.defaultSql.empty()) row[31] = p.defaultSql;
          rows.push_back(std::move(row));
        }
  });
  return rows;
}

}  // namespace duet
