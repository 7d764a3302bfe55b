#!/usr/bin/env python3
"""asyncpg against a server: connecting (its startup parameters, client_encoding 'utf-8'),
parameters and results of the common types in asyncpg's binary format, arrays (which
asyncpg introspects through pg_type on first use), prepared statements, transactions,
executemany, bytea and uuid, a pool whose connections are reset on release (RESET ALL, UNLISTEN *,
pg_advisory_unlock_all(), CLOSE ALL), and copy_records_to_table (binary COPY FROM STDIN).
Usage: asyncpg_test.py HOST PORT
"""
import asyncio
import datetime
import decimal
import json
import sys
import traceback
import uuid

import asyncpg

HOST, PORT = sys.argv[1], int(sys.argv[2])


async def connect():
    return await asyncpg.connect(host=HOST, port=PORT, user="postgres", database="postgres", timeout=10)


async def test_types():
    conn = await connect()
    try:
        await conn.execute("DROP TABLE IF EXISTS apg_types")
        await conn.execute("CREATE TABLE apg_types (i integer PRIMARY KEY, g bigint, n numeric(10,3), d double precision, "
                           "t text, v varchar(10), dt date, ts timestamp, tz timestamptz, b boolean)")
        row = (1, 2**40, decimal.Decimal("1234.567"), -2.25, "it's", "vc", datetime.date(2024, 2, 29),
               datetime.datetime(2024, 3, 1, 12, 30, 45, 123456),
               datetime.datetime(2024, 3, 1, 12, 0, tzinfo=datetime.timezone.utc), True)
        await conn.execute("INSERT INTO apg_types VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)", *row)
        got = await conn.fetchrow("SELECT * FROM apg_types WHERE i = $1", 1)
        assert tuple(got) == row, got
        assert await conn.fetchval("SELECT $1::int + 1", 41) == 42
        assert await conn.fetchval("SELECT NULL::text") is None
        await conn.execute("DROP TABLE apg_types")
    finally:
        await conn.close()


async def test_bytea_uuid():
    """bytea and uuid in asyncpg's binary format: parameters, results, arrays (introspected
    through pg_type), uuid keys and binary COPY."""
    conn = await connect()
    try:
        await conn.execute("DROP TABLE IF EXISTS apg_bu")
        await conn.execute("CREATE TABLE apg_bu (id uuid PRIMARY KEY, b bytea, us uuid[], bs bytea[])")
        rows = [(uuid.UUID("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"), bytes(range(256)), [uuid.UUID(int=1)], [b"", None]),
                (uuid.UUID(int=0), b"", [], [b"\x00\\"])]
        await conn.executemany("INSERT INTO apg_bu VALUES ($1, $2, $3, $4)", rows)
        got = await conn.fetch("SELECT * FROM apg_bu ORDER BY id")
        assert [tuple(r) for r in got] == sorted(rows, key=lambda r: r[0].bytes), got
        assert await conn.fetchval("SELECT b FROM apg_bu WHERE id = $1", rows[0][0]) == rows[0][1]
        assert await conn.fetchval("SELECT $1::bytea || $2::bytea", b"\x01", b"\xff") == b"\x01\xff"
        assert (await conn.fetchval("SELECT gen_random_uuid()")).version == 4
        await conn.execute("DELETE FROM apg_bu")
        await conn.copy_records_to_table("apg_bu", records=rows)
        got = await conn.fetch("SELECT * FROM apg_bu ORDER BY id")
        assert [tuple(r) for r in got] == sorted(rows, key=lambda r: r[0].bytes), got
        await conn.execute("DROP TABLE apg_bu")
    finally:
        await conn.close()


async def test_json():
    # asyncpg reads and sends json and jsonb as text by default (jsonb in its binary format:
    # version 1, then the text); codecs make them Python objects.
    conn = await connect()
    try:
        assert await conn.fetchval("SELECT '{\"b\": 1, \"a\": [1.50, null]}'::jsonb") == '{"a": [1.50, null], "b": 1}'
        assert await conn.fetchval("SELECT $1::jsonb -> 'a'", '{"a": {"x": 1}}') == '{"x": 1}'
        assert await conn.fetchval("SELECT $1::json", '{"a" :  1}') == '{"a" :  1}'
        await conn.set_type_codec("jsonb", encoder=json.dumps, decoder=json.loads, schema="pg_catalog")
        doc = {"k": [1, "two", None, {"n": True}]}
        assert await conn.fetchval("SELECT $1::jsonb", doc) == doc
        assert await conn.fetchval("SELECT jsonb_build_object('k', $1::jsonb -> 'k')", doc) == doc
    finally:
        await conn.close()


async def test_arrays_and_catalog_types():
    conn = await connect()
    try:
        assert await conn.fetchval("SELECT ARRAY[1, 2, NULL]") == [1, 2, None]
        assert await conn.fetchval("SELECT $1::text[]", ["a", "b"]) == ["a", "b"]
        assert await conn.fetchval("SELECT $1::bigint[]", [1, 2**40]) == [1, 2**40]
        # oid, regclass and name go through asyncpg's own codecs.
        assert await conn.fetchval("SELECT 'pg_class'::regclass::oid") == 1259
        assert await conn.fetchval("SELECT $1::oid[]", [1, 4294967295]) == [1, 4294967295]
        assert await conn.fetchval("SELECT relname FROM pg_class WHERE oid = $1", 1259) == "pg_class"
        assert await conn.fetchval("SELECT current_database()") == "postgres"
    finally:
        await conn.close()


async def test_prepared_and_executemany():
    conn = await connect()
    try:
        await conn.execute("DROP TABLE IF EXISTS apg_rows")
        await conn.execute("CREATE TABLE apg_rows (k integer PRIMARY KEY, v text)")
        await conn.executemany("INSERT INTO apg_rows VALUES ($1, $2)", [(k, f"v{k}") for k in range(100)])
        stmt = await conn.prepare("SELECT v FROM apg_rows WHERE k = $1")
        assert [await stmt.fetchval(k) for k in (0, 50, 99)] == ["v0", "v50", "v99"]
        assert [r["k"] for r in await conn.fetch("SELECT k FROM apg_rows WHERE k < $1 ORDER BY k", 3)] == [0, 1, 2]
        await conn.execute("DROP TABLE apg_rows")
    finally:
        await conn.close()


async def test_transactions():
    conn = await connect()
    try:
        await conn.execute("DROP TABLE IF EXISTS apg_tx")
        await conn.execute("CREATE TABLE apg_tx (k integer PRIMARY KEY)")
        async with conn.transaction():
            await conn.execute("INSERT INTO apg_tx VALUES (1)")
            try:
                async with conn.transaction():  # a savepoint
                    await conn.execute("INSERT INTO apg_tx VALUES (1)")
            except asyncpg.UniqueViolationError:
                pass
            await conn.execute("INSERT INTO apg_tx VALUES (2)")
        try:
            async with conn.transaction():
                await conn.execute("INSERT INTO apg_tx VALUES (3)")
                raise RuntimeError("roll back")
        except RuntimeError:
            pass
        assert [r[0] for r in await conn.fetch("SELECT k FROM apg_tx ORDER BY k")] == [1, 2]
        await conn.execute("DROP TABLE apg_tx")
    finally:
        await conn.close()


async def test_pool_reset():
    pool = await asyncpg.create_pool(host=HOST, port=PORT, user="postgres", database="postgres", min_size=1,
                                     max_size=2, timeout=10)
    try:
        for _ in range(3):
            async with pool.acquire() as conn:  # released with asyncpg's reset query
                await conn.execute("SET application_name = 'apg_pool'")
                assert await conn.fetchval("SELECT 1") == 1
        async with pool.acquire() as conn:
            assert await conn.fetchval("SHOW application_name") != "apg_pool"
    finally:
        await pool.close()


async def test_binary_copy():
    """copy_records_to_table: binary COPY FROM STDIN of the types asyncpg introspects, with and
    without a column list, and one that fails on a duplicate key and leaves nothing."""
    conn = await connect()
    try:
        await conn.execute("DROP TABLE IF EXISTS apg_copy")
        await conn.execute("CREATE TABLE apg_copy (i integer PRIMARY KEY, n numeric, t text, ts timestamptz, "
                           "a integer[], iv interval, ok boolean)")
        utc = datetime.timezone.utc
        records = [(k, decimal.Decimal(k) / 8, f"row {k}", datetime.datetime(2024, 1, 1, k % 24, tzinfo=utc),
                    [k, None], datetime.timedelta(seconds=k), k % 2 == 0) for k in range(1000)]
        records.append((1000, None, None, None, None, None, None))
        status = await conn.copy_records_to_table("apg_copy", records=records)
        assert status == "COPY 1001", status
        got = await conn.fetch("SELECT * FROM apg_copy ORDER BY i")
        assert [tuple(r) for r in got] == records, got[:3]
        status = await conn.copy_records_to_table("apg_copy", records=[("x", 1001)], columns=["t", "i"])
        assert await conn.fetchval("SELECT t FROM apg_copy WHERE i = 1001") == "x", status
        try:
            await conn.copy_records_to_table("apg_copy", records=[(1, None, None, None, None, None, None)])
            raise AssertionError("duplicate key accepted")
        except asyncpg.UniqueViolationError:
            pass
        assert await conn.fetchval("SELECT count(*) FROM apg_copy") == 1002
        await conn.execute("DROP TABLE apg_copy")
    finally:
        await conn.close()


TESTS = [test_types, test_json, test_arrays_and_catalog_types, test_prepared_and_executemany, test_transactions,
         test_pool_reset, test_binary_copy, test_bytea_uuid]


def main() -> int:
    failed = 0
    for test in TESTS:
        try:
            asyncio.run(asyncio.wait_for(test(), 60))
        except Exception:
            failed += 1
            print(f"FAIL {test.__name__}")
            traceback.print_exc()
    print(f"asyncpg: {len(TESTS) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
