// node-postgres (pg) and postgres.js against a server, as a Node.js application uses them:
// connecting (postgres.js reads pg_type at connect), parameters and results of the common
// types, arrays, transactions with rollback, a SERIAL key from RETURNING, a pool, errors
// with their SQLSTATE, and (pg) a query streamed in pieces through a named portal.
// Usage: node node_clients_test.mjs HOST PORT
import pg from 'pg';
import postgres from 'postgres';

const [host, port] = [process.argv[2], Number(process.argv[3])];
const connection = { host, port, user: 'postgres', database: 'postgres' };
let passed = 0, failed = 0;

function check(name, expected, actual) {
  const e = JSON.stringify(expected), a = JSON.stringify(actual);
  if (e === a) { passed++; return; }
  failed++;
  console.log(`FAIL ${name}\n  expected: ${e}\n  got:      ${a}`);
}

async function test(name, body) {
  try { await body(); } catch (err) { failed++; console.log(`FAIL ${name}: ${err.stack}`); }
}

await test('node-postgres', async () => {
  const client = new pg.Client(connection);
  await client.connect();
  try {
    await client.query('DROP TABLE IF EXISTS node_pg');
    await client.query('CREATE TABLE node_pg (id serial PRIMARY KEY, name text NOT NULL, n numeric(10,2), ' +
                       'at timestamptz, flags boolean[], ok boolean)');
    const ins = await client.query(
        'INSERT INTO node_pg (name, n, at, flags, ok) VALUES ($1, $2, $3, $4, $5), ($6, NULL, NULL, NULL, NULL) RETURNING id',
        ['a', '12.50', new Date(Date.UTC(2024, 1, 29, 12)), [true, false], true, "it's"]);
    check('pg RETURNING serial ids', [1, 2], ins.rows.map(r => r.id));
    const { rows } = await client.query('SELECT id, name, n, at, flags, ok FROM node_pg ORDER BY id');
    check('pg rows', [1, 'a', '12.50', '2024-02-29T12:00:00.000Z', [true, false], true],
          [rows[0].id, rows[0].name, rows[0].n, rows[0].at.toISOString(), rows[0].flags, rows[0].ok]);
    check('pg NULLs', [2, "it's", null, null], [rows[1].id, rows[1].name, rows[1].n, rows[1].flags]);
    // A prepared (named) statement, run twice.
    for (const id of [1, 2]) {
      const r = await client.query({ name: 'by_id', text: 'SELECT name FROM node_pg WHERE id = $1', values: [id] });
      check(`pg named statement ${id}`, id === 1 ? 'a' : "it's", r.rows[0].name);
    }
    await client.query('BEGIN');
    await client.query("UPDATE node_pg SET name = 'changed'");
    await client.query('ROLLBACK');
    check('pg rollback', ['a', "it's"], (await client.query('SELECT name FROM node_pg ORDER BY id')).rows.map(r => r.name));
    try {
      await client.query('INSERT INTO node_pg (id, name) VALUES (1, $1)', ['dup']);
      check('pg duplicate key error', 'an error', 'none');
    } catch (err) {
      check('pg duplicate key error', ['23505', 'node_pg_pkey'], [err.code, err.constraint]);
    }
    await client.query('DROP TABLE node_pg');
  } finally {
    await client.end();
  }
  const pool = new pg.Pool({ ...connection, max: 3 });
  const sums = await Promise.all([1, 2, 3, 4, 5, 6].map(i => pool.query('SELECT $1::int * 2 AS v', [i])));
  check('pg pool', [2, 4, 6, 8, 10, 12], sums.map(r => r.rows[0].v));
  await pool.end();
});

await test('postgres.js', async () => {
  const sql = postgres({ ...connection, username: 'postgres', max: 2, onnotice: () => {} });
  try {
    await sql`DROP TABLE IF EXISTS node_pgjs`;
    await sql`CREATE TABLE node_pgjs (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, name text, tags text[], score float8)`;
    const inserted = await sql`INSERT INTO node_pgjs ${sql([{ name: 'x', tags: ['a', 'b'], score: 1.5 },
                                                          { name: 'y', tags: [], score: null }])} RETURNING id`;
    check('postgres.js identity ids', ['1', '2'], inserted.map(r => String(r.id)));
    const rows = await sql`SELECT name, tags, score FROM node_pgjs WHERE name = ${'x'}`;
    check('postgres.js row', [{ name: 'x', tags: ['a', 'b'], score: 1.5 }], rows.map(r => ({ ...r })));
    await sql.begin(async tx => {
      await tx`UPDATE node_pgjs SET score = 2`;
      const [{ n }] = await tx`SELECT count(*)::int AS n FROM node_pgjs WHERE score = 2`;
      check('postgres.js transaction', 2, n);
    });
    try {
      await sql.begin(async tx => {
        await tx`DELETE FROM node_pgjs`;
        throw new Error('roll back');
      });
    } catch (err) {
      check('postgres.js rollback reason', 'roll back', err.message);
    }
    const [{ count }] = await sql`SELECT count(*)::int AS count FROM node_pgjs`;
    check('postgres.js rolled back', 2, count);
    try {
      await sql`SELECT 1 / 0`;
      check('postgres.js division error', 'an error', 'none');
    } catch (err) {
      check('postgres.js division error', '22012', err.code);
    }
    await sql`DROP TABLE node_pgjs`;
  } finally {
    await sql.end();
  }
});

console.log(`node clients: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
