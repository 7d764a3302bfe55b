// pgx (v5) against a server, as a Go application uses it: connecting, parameters and
// results of the common types in pgx's binary format, arrays, CopyFrom (binary COPY), a
// batch, transactions with rollback, LoadType (::regtype::oid), a pool, and errors with
// their SQLSTATE.
// Usage: go run . HOST PORT
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"reflect"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

var passed, failed int

func check(name string, expected, actual any) {
	if reflect.DeepEqual(expected, actual) {
		passed++
		return
	}
	failed++
	fmt.Printf("FAIL %s\n  expected: %#v\n  got:      %#v\n", name, expected, actual)
}

func must(name string, err error) bool {
	if err == nil {
		return true
	}
	failed++
	fmt.Printf("FAIL %s: %v\n", name, err)
	return false
}

func main() {
	ctx := context.Background()
	url := fmt.Sprintf("postgres://postgres@%s:%s/postgres?sslmode=disable", os.Args[1], os.Args[2])
	conn, err := pgx.Connect(ctx, url)
	if !must("connect", err) {
		os.Exit(1)
	}
	defer conn.Close(ctx)

	_, err = conn.Exec(ctx, "DROP TABLE IF EXISTS pgx_t")
	must("drop", err)
	_, err = conn.Exec(ctx, `CREATE TABLE pgx_t (id bigserial PRIMARY KEY, name text NOT NULL, n numeric(10,2),
		at timestamptz, tags text[], ok boolean)`)
	must("create", err)

	at := time.Date(2024, 2, 29, 12, 0, 0, 0, time.UTC)
	var id int64
	err = conn.QueryRow(ctx, "INSERT INTO pgx_t (name, n, at, tags, ok) VALUES ($1, $2, $3, $4, $5) RETURNING id",
		"a", "12.50", at, []string{"x", "y"}, true).Scan(&id)
	if must("insert returning", err) {
		check("serial id", int64(1), id)
	}

	rows := [][]any{{"b", nil, nil, []string{}, false}, {"c", "1.25", at, nil, nil}}
	copied, err := conn.CopyFrom(ctx, pgx.Identifier{"pgx_t"}, []string{"name", "n", "at", "tags", "ok"},
		pgx.CopyFromRows(rows))
	if must("CopyFrom", err) {
		check("copied rows", int64(2), copied)
	}

	var name string
	var tags []string
	var when time.Time
	err = conn.QueryRow(ctx, "SELECT name, tags, at FROM pgx_t WHERE id = $1", 1).Scan(&name, &tags, &when)
	if must("select", err) {
		check("row", []any{"a", []string{"x", "y"}, at}, []any{name, tags, when.UTC()})
	}

	batch := &pgx.Batch{}
	batch.Queue("SELECT count(*) FROM pgx_t")
	batch.Queue("SELECT max(id) FROM pgx_t")
	results := conn.SendBatch(ctx, batch)
	var count, max int64
	must("batch 1", results.QueryRow().Scan(&count))
	must("batch 2", results.QueryRow().Scan(&max))
	must("batch close", results.Close())
	check("batch", []int64{3, 3}, []int64{count, max})

	tx, err := conn.Begin(ctx)
	if must("begin", err) {
		_, err = tx.Exec(ctx, "DELETE FROM pgx_t")
		must("delete in tx", err)
		must("rollback", tx.Rollback(ctx))
	}
	must("count after rollback", conn.QueryRow(ctx, "SELECT count(*) FROM pgx_t").Scan(&count))
	check("rolled back", int64(3), count)

	dataType, err := conn.LoadType(ctx, "_text")
	if must("LoadType", err) {
		check("LoadType oid", uint32(1009), dataType.OID)
	}

	_, err = conn.Exec(ctx, "INSERT INTO pgx_t (id, name) VALUES (1, 'dup')")
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		check("duplicate key", []string{"23505", "pgx_t_pkey"}, []string{pgErr.Code, pgErr.ConstraintName})
	} else {
		check("duplicate key", "a PgError", fmt.Sprint(err))
	}

	pool, err := pgxpool.New(ctx, url)
	if must("pool", err) {
		sum := int64(0)
		for i := int64(1); i <= 5; i++ {
			var v int64
			must("pool query", pool.QueryRow(ctx, "SELECT $1::bigint * 2", i).Scan(&v))
			sum += v
		}
		check("pool", int64(30), sum)
		pool.Close()
	}

	_, err = conn.Exec(ctx, "DROP TABLE pgx_t")
	must("drop", err)
	fmt.Printf("pgx: %d passed, %d failed\n", passed, failed)
	if failed > 0 {
		os.Exit(1)
	}
}
