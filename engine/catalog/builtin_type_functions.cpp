// The I/O functions of the built-in types (pg_type.typinput, typoutput, ...), by
// PostgreSQL's oids and names: what pg_type shows and what regproc reads and prints for them
// ('array_in'::regproc, as pgjdbc asks). DuetDB's own I/O lives in engine/types.
#include "engine/catalog/builtin_types.h"

namespace duet {
namespace {

constexpr uint32_t kArrayIn = 750, kArrayOut = 751, kArrayRecv = 2400, kArraySend = 2401;

// clang-format off: one type a line
constexpr TypeFunctions kTypeFunctions[] = {
    // type  input output receive send typmodin typmodout
    {16, 1242, 1243, 2436, 2437, 0, 0},
    {17, 1244, 31, 2412, 2413, 0, 0},
    {18, 1245, 33, 2434, 2435, 0, 0},
    {19, 34, 35, 2422, 2423, 0, 0},
    {20, 460, 461, 2408, 2409, 0, 0},
    {21, 38, 39, 2404, 2405, 0, 0},
    {22, 40, 41, 2410, 2411, 0, 0},
    {23, 42, 43, 2406, 2407, 0, 0},
    {24, 44, 45, 2444, 2445, 0, 0},
    {25, 46, 47, 2414, 2415, 0, 0},
    {26, 1798, 1799, 2418, 2419, 0, 0},
    {30, 54, 55, 2420, 2421, 0, 0},
    {114, 321, 322, 323, 324, 0, 0},
    {700, 200, 201, 2424, 2425, 0, 0},
    {701, 214, 215, 2426, 2427, 0, 0},
    {705, 109, 110, 2416, 2417, 0, 0},
    {1042, 1044, 1045, 2430, 2431, 2913, 2914},
    {1043, 1046, 1047, 2432, 2433, 2915, 2916},
    {1082, 1084, 1085, 2468, 2469, 0, 0},
    {1114, 1312, 1313, 2474, 2475, 2905, 2906},
    {1184, 1150, 1151, 2476, 2477, 2907, 2908},
    {1186, 1160, 1161, 2478, 2479, 2903, 2904},
    {1700, 1701, 1702, 2460, 2461, 2917, 2918},
    {2202, 2212, 2213, 2446, 2447, 0, 0},
    {2203, 2214, 2215, 2448, 2449, 0, 0},
    {2204, 2216, 2217, 2450, 2451, 0, 0},
    {2205, 2218, 2219, 2452, 2453, 0, 0},
    {2206, 2220, 2221, 2454, 2455, 0, 0},
    {2249, 2290, 2291, 2402, 2403, 0, 0},
    {2278, 2298, 2299, 3120, 3121, 0, 0},
    {2950, 2952, 2953, 2961, 2962, 0, 0},
    {3802, 3806, 3804, 3805, 3803, 0, 0},
    {4089, 4084, 4085, 4087, 4088, 0, 0},
    {4096, 4098, 4092, 4094, 4095, 0, 0},
};

struct FunctionName {
  uint32_t oid;
  std::string_view name;
};
constexpr FunctionName kFunctionNames[] = {
    {31, "byteaout"},
    {33, "charout"},
    {34, "namein"},
    {35, "nameout"},
    {38, "int2in"},
    {39, "int2out"},
    {40, "int2vectorin"},
    {41, "int2vectorout"},
    {42, "int4in"},
    {43, "int4out"},
    {44, "regprocin"},
    {45, "regprocout"},
    {46, "textin"},
    {47, "textout"},
    {54, "oidvectorin"},
    {55, "oidvectorout"},
    {109, "unknownin"},
    {110, "unknownout"},
    {200, "float4in"},
    {201, "float4out"},
    {214, "float8in"},
    {215, "float8out"},
    {321, "json_in"},
    {322, "json_out"},
    {323, "json_recv"},
    {324, "json_send"},
    {460, "int8in"},
    {461, "int8out"},
    {750, "array_in"},
    {751, "array_out"},
    {1044, "bpcharin"},
    {1045, "bpcharout"},
    {1046, "varcharin"},
    {1047, "varcharout"},
    {1084, "date_in"},
    {1085, "date_out"},
    {1150, "timestamptz_in"},
    {1151, "timestamptz_out"},
    {1160, "interval_in"},
    {1161, "interval_out"},
    {1242, "boolin"},
    {1243, "boolout"},
    {1244, "byteain"},
    {1245, "charin"},
    {1312, "timestamp_in"},
    {1313, "timestamp_out"},
    {1701, "numeric_in"},
    {1702, "numeric_out"},
    {1798, "oidin"},
    {1799, "oidout"},
    {2212, "regprocedurein"},
    {2213, "regprocedureout"},
    {2214, "regoperin"},
    {2215, "regoperout"},
    {2216, "regoperatorin"},
    {2217, "regoperatorout"},
    {2218, "regclassin"},
    {2219, "regclassout"},
    {2220, "regtypein"},
    {2221, "regtypeout"},
    {2290, "record_in"},
    {2291, "record_out"},
    {2298, "void_in"},
    {2299, "void_out"},
    {2400, "array_recv"},
    {2401, "array_send"},
    {2402, "record_recv"},
    {2403, "record_send"},
    {2404, "int2recv"},
    {2405, "int2send"},
    {2406, "int4recv"},
    {2407, "int4send"},
    {2408, "int8recv"},
    {2409, "int8send"},
    {2410, "int2vectorrecv"},
    {2411, "int2vectorsend"},
    {2412, "bytearecv"},
    {2413, "byteasend"},
    {2414, "textrecv"},
    {2415, "textsend"},
    {2416, "unknownrecv"},
    {2417, "unknownsend"},
    {2418, "oidrecv"},
    {2419, "oidsend"},
    {2420, "oidvectorrecv"},
    {2421, "oidvectorsend"},
    {2422, "namerecv"},
    {2423, "namesend"},
    {2424, "float4recv"},
    {2425, "float4send"},
    {2426, "float8recv"},
    {2427, "float8send"},
    {2430, "bpcharrecv"},
    {2431, "bpcharsend"},
    {2432, "varcharrecv"},
    {2433, "varcharsend"},
    {2434, "charrecv"},
    {2435, "charsend"},
    {2436, "boolrecv"},
    {2437, "boolsend"},
    {2444, "regprocrecv"},
    {2445, "regprocsend"},
    {2446, "regprocedurerecv"},
    {2447, "regproceduresend"},
    {2448, "regoperrecv"},
    {2449, "regopersend"},
    {2450, "regoperatorrecv"},
    {2451, "regoperatorsend"},
    {2452, "regclassrecv"},
    {2453, "regclasssend"},
    {2454, "regtyperecv"},
    {2455, "regtypesend"},
    {2460, "numeric_recv"},
    {2461, "numeric_send"},
    {2468, "date_recv"},
    {2469, "date_send"},
    {2474, "timestamp_recv"},
    {2475, "timestamp_send"},
    {2476, "timestamptz_recv"},
    {2477, "timestamptz_send"},
    {2478, "interval_recv"},
    {2479, "interval_send"},
    {2903, "intervaltypmodin"},
    {2904, "intervaltypmodout"},
    {2905, "timestamptypmodin"},
    {2906, "timestamptypmodout"},
    {2907, "timestamptztypmodin"},
    {2908, "timestamptztypmodout"},
    {2913, "bpchartypmodin"},
    {2914, "bpchartypmodout"},
    {2915, "varchartypmodin"},
    {2916, "varchartypmodout"},
    {2917, "numerictypmodin"},
    {2918, "numerictypmodout"},
    {2952, "uuid_in"},
    {2953, "uuid_out"},
    {2961, "uuid_recv"},
    {2962, "uuid_send"},
    {3120, "void_recv"},
    {3121, "void_send"},
    {3803, "jsonb_send"},
    {3804, "jsonb_out"},
    {3805, "jsonb_recv"},
    {3806, "jsonb_in"},
    {4084, "regnamespacein"},
    {4085, "regnamespaceout"},
    {4087, "regnamespacerecv"},
    {4088, "regnamespacesend"},
    {4092, "regroleout"},
    {4094, "regrolerecv"},
    {4095, "regrolesend"},
    {4098, "regrolein"},
};
// clang-format on

}  // namespace

TypeFunctions typeFunctions(uint32_t typeOid) {
  for (const TypeFunctions& f : kTypeFunctions)
    if (f.type == typeOid) return f;
  const BuiltinType* t = builtinTypeByOid(typeOid);
  if (t && t->category == 'A') {  // arrays: array_in and kin, the element's typmod functions
    TypeFunctions element = typeFunctions(t->element);
    return {typeOid, kArrayIn, kArrayOut, kArrayRecv, kArraySend, element.typmodIn, element.typmodOut};
  }
  return {typeOid, 0, 0, 0, 0, 0, 0};
}

std::string_view builtinFunctionName(uint32_t oid) {
  for (const FunctionName& f : kFunctionNames)
    if (f.oid == oid) return f.name;
  return {};
}

uint32_t builtinFunctionOid(std::string_view name) {
  for (const FunctionName& f : kFunctionNames)
    if (f.name == name) return f.oid;
  return 0;
}

}  // namespace duet
