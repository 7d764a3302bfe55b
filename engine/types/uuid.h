// uuid: 16 bytes, as PostgreSQL 15's uuid.c. The physical value is one unsigned __int128
// (an LLVM i128, as interval and numeric) whose most significant byte is the uuid's first,
// so unsigned integer order is PostgreSQL's memcmp order and generated code compares uuids
// in a register.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace duet {

using UuidRep = unsigned __int128;

// uuid_in: 32 hex digits, upper or lower case, optionally with a hyphen after any group of
// four and in braces ('{a0eebc99-9c0b4ef8-bb6d6bb9-bd380a11}'); 22P02 otherwise.
UuidRep parseUuid(std::string_view text);
// uuid_out: lower case, hyphens at 8-4-4-4-12.
void formatUuid(UuidRep v, std::string& out);
// uuid_send / uuid_recv: the 16 bytes in order.
void uuidToBytes(UuidRep v, unsigned char out[16]);
UuidRep uuidFromBytes(const unsigned char bytes[16]);
// A version 4 (random) uuid from 128 random bits: the version and variant bits set as
// gen_random_uuid does.
UuidRep makeRandomUuid(uint64_t high, uint64_t low);
uint64_t uuidHash(UuidRep v);

}  // namespace duet
