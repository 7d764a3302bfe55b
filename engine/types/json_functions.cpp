// json and jsonb operators and functions (json_functions.h), following PostgreSQL 15's
// jsonfuncs.c (paths, setPath, the delete and concatenation operators) and json.c
// (json_build_object and its kin).
#include "engine/types/json_functions.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>

#include "engine/error.h"
#include "engine/limits/stack_depth.h"

namespace duet {

namespace {

[[noreturn]] void invalidParameter(std::string message, std::string hint = {}) {
  throw SqlError(sqlstate::kInvalidParameterValue, std::move(message), {}, std::move(hint));
}

// An array index of a path (strtol over the whole text), or nullopt.
std::optional<int64_t> pathIndex(std::string_view text) {
  std::string s(text);
  char* end = nullptr;
  errno = 0;
  long long v = std::strtoll(s.c_str(), &end, 10);
  if (end == s.c_str() || *end != '\0' || errno != 0 || v > INT_MAX || v < INT_MIN) return std::nullopt;
  return v;
}

// Element `index` of `count` (negative: from the end), or nullopt when out of range.
std::optional<uint32_t> elementAt(int64_t index, size_t count) {
  if (index < 0) index += static_cast<int64_t>(count);
  if (index < 0 || index >= static_cast<int64_t>(count)) return std::nullopt;
  return static_cast<uint32_t>(index);
}

const JsonValue* valueField(const JsonValue& v, std::string_view key) {
  if (v.kind != JsonKind::Object) return nullptr;
  const JsonValue* found = nullptr;  // json keeps duplicate keys: the last one is found
  for (size_t i = 0; i < v.keys.size(); ++i)
    if (v.keys[i] == key) found = &v.items[i];
  return found;
}

const JsonValue* valueElement(const JsonValue& v, int64_t index) {
  if (v.kind != JsonKind::Array) return nullptr;
  std::optional<uint32_t> i = elementAt(index, v.items.size());
  return i ? &v.items[*i] : nullptr;
}

// The text of a JSON value for ->> : a string's text, null as NULL, else its JSON text.
std::optional<std::string> asText(const JsonValue& v) {
  if (v.kind == JsonKind::Null) return std::nullopt;
  if (v.kind == JsonKind::String) return v.text;
  return std::string(v.raw);
}

void stripNulls(const JsonValue& v, std::string& out) {
  checkStackDepth();
  if (v.isScalar()) {
    out += v.raw;
    return;
  }
  bool object = v.kind == JsonKind::Object;
  out += object ? '{' : '[';
  bool first = true;
  for (size_t i = 0; i < v.items.size(); ++i) {
    if (object && v.items[i].kind == JsonKind::Null) continue;
    if (!first) out += ',';
    first = false;
    if (object) {
      appendJsonString(v.keys[i], out);
      out += ':';
    }
    stripNulls(v.items[i], out);
  }
  out += object ? '}' : ']';
}

JsonValue stripNulls(JsonbRef v) {
  checkStackDepth();
  JsonValue out = jsonbToValue(v);
  if (v.isScalar()) return out;
  out.keys.clear();
  out.items.clear();
  bool object = v.kind() == JsonKind::Object;
  for (uint32_t i = 0; i < v.count(); ++i) {
    JsonbRef item = object ? v.value(i) : v.element(i);
    if (object && item.kind() == JsonKind::Null) continue;
    if (object) out.keys.emplace_back(v.key(i));
    out.items.push_back(stripNulls(item));
  }
  return out;
}

// The members of `v` as a list for ||: an array's elements, else the value itself.
void appendAsElements(const JsonValue& v, std::vector<JsonValue>& out) {
  if (v.kind == JsonKind::Array)
    out.insert(out.end(), v.items.begin(), v.items.end());
  else
    out.push_back(v);
}

void setPath(JsonValue& v, JsonPath path, size_t level, const JsonValue* newValue, JsonbPathOp op);

bool createsOrInserts(JsonbPathOp op) {
  return op == JsonbPathOp::Create || op == JsonbPathOp::InsertBefore || op == JsonbPathOp::InsertAfter;
}

void setPathObject(JsonValue& v, JsonPath path, size_t level, const JsonValue* newValue, JsonbPathOp op) {
  std::string_view key = *path[level];
  bool last = level + 1 == path.size();
  for (size_t i = 0; i < v.keys.size(); ++i) {
    if (v.keys[i] != key) continue;
    if (!last) return setPath(v.items[i], path, level + 1, newValue, op);
    if (op == JsonbPathOp::InsertBefore || op == JsonbPathOp::InsertAfter)
      invalidParameter("cannot replace existing key", "Try using the function jsonb_set to replace key value.");
    if (op == JsonbPathOp::Delete) {
      v.keys.erase(v.keys.begin() + static_cast<ptrdiff_t>(i));
      v.items.erase(v.items.begin() + static_cast<ptrdiff_t>(i));
    } else {
      v.items[i] = *newValue;
    }
    return;
  }
  if (last && createsOrInserts(op)) {
    v.keys.emplace_back(key);
    v.items.push_back(*newValue);
  }
}

void setPathArray(JsonValue& v, JsonPath path, size_t level, const JsonValue* newValue, JsonbPathOp op) {
  std::string_view step = *path[level];
  std::optional<int64_t> parsed = pathIndex(step);
  if (!parsed)
    throw SqlError(sqlstate::kInvalidTextRepresentation,
                   fmt::format("path element at position {} is not an integer: \"{}\"", level + 1, step));
  int64_t n = static_cast<int64_t>(v.items.size()), idx = *parsed;
  bool prepend = false;
  if (idx < 0) {
    if (-idx > n)
      prepend = true;
    else
      idx += n;
  }
  if (idx > n) idx = n;
  bool last = level + 1 == path.size();
  if ((prepend || n == 0) && last && createsOrInserts(op)) {
    v.items.insert(v.items.begin(), *newValue);
    return;
  }
  if (!prepend && idx < n) {
    auto at = v.items.begin() + idx;
    if (!last) return setPath(*at, path, level + 1, newValue, op);
    switch (op) {
      case JsonbPathOp::Replace:
      case JsonbPathOp::Create: *at = *newValue; break;
      case JsonbPathOp::InsertBefore: v.items.insert(at, *newValue); break;
      case JsonbPathOp::InsertAfter: v.items.insert(at + 1, *newValue); break;
      case JsonbPathOp::Delete: v.items.erase(at); break;
    }
    return;
  }
  if (last && createsOrInserts(op)) v.items.push_back(*newValue);
}

void setPath(JsonValue& v, JsonPath path, size_t level, const JsonValue* newValue, JsonbPathOp op) {
  checkStackDepth();
  if (v.isScalar()) return;  // a scalar inside the value stays as it is
  if (!path[level])
    throw SqlError(sqlstate::kNullValueNotAllowed, fmt::format("path element at position {} is null", level + 1));
  if (v.kind == JsonKind::Object)
    setPathObject(v, path, level, newValue, op);
  else
    setPathArray(v, path, level, newValue, op);
}

JsonValue parseArg(std::string_view json) { return parseJson(json, true); }

}  // namespace

std::optional<std::string_view> jsonField(std::string_view json, std::string_view key) {
  JsonValue v = parseArg(json);
  const JsonValue* f = valueField(v, key);
  return f ? std::optional(f->raw) : std::nullopt;
}

std::optional<std::string_view> jsonElement(std::string_view json, int32_t index) {
  JsonValue v = parseArg(json);
  const JsonValue* e = valueElement(v, index);
  return e ? std::optional(e->raw) : std::nullopt;
}

std::optional<std::string_view> jsonPath(std::string_view json, JsonPath path) {
  JsonValue root = parseArg(json);
  const JsonValue* v = &root;
  for (const auto& step : path) {
    if (!step) return std::nullopt;
    if (v->kind == JsonKind::Object) {
      v = valueField(*v, *step);
    } else if (v->kind == JsonKind::Array) {
      std::optional<int64_t> index = pathIndex(*step);
      v = index ? valueElement(*v, *index) : nullptr;
    } else {
      v = nullptr;
    }
    if (!v) return std::nullopt;
  }
  return v->raw;
}

std::optional<JsonbRef> jsonbField(JsonbRef v, std::string_view key) {
  if (v.kind() != JsonKind::Object) return std::nullopt;
  return v.find(key);
}

std::optional<JsonbRef> jsonbElement(JsonbRef v, int32_t index) {
  if (v.kind() != JsonKind::Array) return std::nullopt;
  std::optional<uint32_t> i = elementAt(index, v.count());
  return i ? std::optional(v.element(*i)) : std::nullopt;
}

std::optional<JsonbRef> jsonbPath(JsonbRef v, JsonPath path) {
  std::optional<JsonbRef> at = v;
  for (const auto& step : path) {
    if (!step) return std::nullopt;
    if (at->kind() == JsonKind::Object) {
      at = at->find(*step);
    } else if (at->kind() == JsonKind::Array) {
      std::optional<int64_t> index = pathIndex(*step);
      std::optional<uint32_t> i = index ? elementAt(*index, at->count()) : std::nullopt;
      at = i ? std::optional(at->element(*i)) : std::nullopt;
    } else {
      at = std::nullopt;
    }
    if (!at) return std::nullopt;
  }
  return at;
}

std::optional<std::string> jsonAsText(std::string_view json) { return asText(parseArg(json)); }

std::optional<std::string> jsonbAsText(JsonbRef v) {
  if (v.kind() == JsonKind::Null) return std::nullopt;
  if (v.kind() == JsonKind::String) return std::string(v.text());
  std::string out;
  formatJsonb(v, out);
  return out;
}

JsonKind jsonKind(std::string_view json) { return parseArg(json).kind; }

int32_t jsonArrayLength(std::string_view json) {
  JsonValue v = parseArg(json);
  if (v.kind == JsonKind::Object) invalidParameter("cannot get array length of a non-array");
  if (v.kind != JsonKind::Array) invalidParameter("cannot get array length of a scalar");
  return static_cast<int32_t>(v.items.size());
}

int32_t jsonbArrayLength(JsonbRef v) {
  if (v.isScalar()) invalidParameter("cannot get array length of a scalar");
  if (v.kind() != JsonKind::Array) invalidParameter("cannot get array length of a non-array");
  return static_cast<int32_t>(v.count());
}

std::string jsonStripNulls(std::string_view json) {
  std::string out;
  stripNulls(parseArg(json), out);
  return out;
}

JsonValue jsonbStripNulls(JsonbRef v) { return stripNulls(v); }

bool jsonbExists(JsonbRef v, std::string_view key) {
  if (v.kind() == JsonKind::Object) return v.find(key).has_value();
  if (v.isScalar()) return v.kind() == JsonKind::String && v.text() == key;
  for (uint32_t i = 0; i < v.count(); ++i)
    if (v.element(i).kind() == JsonKind::String && v.element(i).text() == key) return true;
  return false;
}

JsonValue jsonbConcat(JsonbRef a, JsonbRef b) {
  JsonValue left = jsonbToValue(a), right = jsonbToValue(b);
  if (left.kind == JsonKind::Object && right.kind == JsonKind::Object) {
    // The right side's members after the left's: encoding keeps the last of a key.
    left.keys.insert(left.keys.end(), right.keys.begin(), right.keys.end());
    left.items.insert(left.items.end(), right.items.begin(), right.items.end());
    return left;
  }
  JsonValue out;
  out.kind = JsonKind::Array;
  appendAsElements(left, out.items);
  appendAsElements(right, out.items);
  return out;
}

JsonValue jsonbDeleteKeys(JsonbRef v, std::span<const std::optional<std::string_view>> keys) {
  if (v.isScalar()) invalidParameter("cannot delete from scalar");
  JsonValue in = jsonbToValue(v), out;
  out.kind = in.kind;
  for (size_t i = 0; i < in.items.size(); ++i) {
    bool object = in.kind == JsonKind::Object;
    const JsonValue& item = in.items[i];
    bool drop = std::any_of(keys.begin(), keys.end(), [&](const std::optional<std::string_view>& k) {
      return k && (object ? in.keys[i] == *k : item.kind == JsonKind::String && item.text == *k);
    });
    if (drop) continue;
    if (object) out.keys.push_back(in.keys[i]);
    out.items.push_back(item);
  }
  return out;
}

JsonValue jsonbDeleteIndex(JsonbRef v, int32_t index) {
  if (v.isScalar()) invalidParameter("cannot delete from scalar");
  if (v.kind() == JsonKind::Object) invalidParameter("cannot delete from object using integer index");
  JsonValue out = jsonbToValue(v);
  if (std::optional<uint32_t> i = elementAt(index, out.items.size()))
    out.items.erase(out.items.begin() + static_cast<ptrdiff_t>(*i));
  return out;
}

JsonValue jsonbSetPath(JsonbRef v, JsonPath path, const JsonValue* newValue, JsonbPathOp op) {
  if (v.isScalar())
    invalidParameter(op == JsonbPathOp::Delete ? "cannot delete path in scalar" : "cannot set path in scalar");
  JsonValue out = jsonbToValue(v);
  if (path.empty() || (op == JsonbPathOp::Delete && v.count() == 0)) return out;
  setPath(out, path, 0, newValue, op);
  return out;
}

std::string jsonKeyText(std::string_view json) {
  JsonValue key = parseArg(json);
  if (!key.isScalar()) invalidParameter("key value must be scalar, not array, composite, or json");
  return key.kind == JsonKind::String ? key.text : std::string(json);
}

std::string jsonBuildObject(std::span<const std::optional<std::string_view>> args) {
  if (args.size() % 2 != 0)
    invalidParameter("argument list must have even number of elements",
                     "The arguments of json_build_object() must consist of alternating keys and values.");
  std::string out = "{";
  for (size_t i = 0; i < args.size(); i += 2) {
    if (!args[i]) invalidParameter(fmt::format("argument {} cannot be null", i + 1), "Object keys should be text.");
    if (i > 0) out += ", ";
    appendJsonString(jsonKeyText(*args[i]), out);
    out += " : ";
    out += args[i + 1] ? *args[i + 1] : "null";
  }
  return out + "}";
}

std::string jsonBuildArray(std::span<const std::optional<std::string_view>> args) {
  std::string out = "[";
  for (size_t i = 0; i < args.size(); ++i) {
    if (i > 0) out += ", ";
    out += args[i] ? *args[i] : "null";
  }
  return out + "]";
}

JsonValue jsonbBuildObject(std::span<const std::optional<std::string_view>> args) {
  if (args.size() % 2 != 0)
    invalidParameter("argument list must have even number of elements",
                     "The arguments of jsonb_build_object() must consist of alternating keys and values.");
  JsonValue out;
  out.kind = JsonKind::Object;
  for (size_t i = 0; i < args.size(); i += 2) {
    if (!args[i]) invalidParameter(fmt::format("argument {}: key must not be null", i + 1));
    out.keys.push_back(jsonKeyText(*args[i]));
    out.items.push_back(args[i + 1] ? parseArg(*args[i + 1]) : JsonValue{});
  }
  return out;
}

JsonValue jsonbBuildArray(std::span<const std::optional<std::string_view>> args) {
  JsonValue out;
  out.kind = JsonKind::Array;
  for (const auto& a : args) out.items.push_back(a ? parseArg(*a) : JsonValue{});
  return out;
}

std::string jsonObjectFromArrays(std::span<const std::optional<std::string_view>> keys,
                                 std::span<const std::optional<std::string_view>> values, bool jsonb) {
  if (keys.size() != values.size()) throw SqlError("2202E", "mismatched array dimensions");
  std::string out = "{";
  for (size_t i = 0; i < keys.size(); ++i) {
    if (!keys[i]) throw SqlError(sqlstate::kNullValueNotAllowed, "null value not allowed for object key");
    if (i > 0) out += ", ";
    appendJsonString(*keys[i], out);
    out += jsonb ? ": " : " : ";
    if (values[i])
      appendJsonString(*values[i], out);
    else
      out += "null";
  }
  return out + "}";
}

std::string jsonObjectFromPairs(std::span<const std::optional<std::string_view>> pairs, bool jsonb) {
  if (pairs.size() % 2 != 0) throw SqlError("2202E", "array must have even number of elements");
  std::vector<std::optional<std::string_view>> keys, values;
  for (size_t i = 0; i < pairs.size(); i += 2) {
    keys.push_back(pairs[i]);
    values.push_back(pairs[i + 1]);
  }
  return jsonObjectFromArrays(keys, values, jsonb);
}

}  // namespace duet
