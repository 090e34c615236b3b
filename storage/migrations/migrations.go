// Package migrations holds PixGate's schema as numbered SQL files, embedded
// in the binary and applied with goose.
package migrations

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
)

// Files are the migrations, in order.
//
//go:embed *.sql
var Files embed.FS

// Up applies every migration not yet applied. A Postgres session lock makes
// it safe to run from several processes starting at once; the lock is only
// taken when something is pending, and waiters poll it every second, so
// replicas starting together come up together.
func Up(ctx context.Context, pool *pgxpool.Pool) (applied int, err error) {
	db := stdlib.OpenDBFromPool(pool)
	defer db.Close()
	locker, err := lock.NewPostgresSessionLocker(lock.WithLockTimeout(1, 300))
	if err != nil {
		return 0, err
	}
	p, err := goose.NewProvider(goose.DialectPostgres, db, Files, goose.WithSessionLocker(locker))
	if err != nil {
		return 0, fmt.Errorf("migrations: %w", err)
	}
	pending, err := p.HasPending(ctx)
	if err != nil {
		return 0, fmt.Errorf("migrations: %w", err)
	}
	if !pending {
		return 0, nil
	}
	results, err := p.Up(ctx)
	if err != nil {
		return len(results), fmt.Errorf("migrations: %w", err)
	}
	return len(results), nil
}

// Count is the number of embedded migrations.
func Count() int { return len(versions()) }

// Pending counts the embedded migrations the database has not applied,
// without writing anything (goose's own check creates its version table).
func Pending(ctx context.Context, pool *pgxpool.Pool) (int, error) {
	var exists bool
	if err := pool.QueryRow(ctx, `SELECT to_regclass('goose_db_version') IS NOT NULL`).Scan(&exists); err != nil {
		return 0, fmt.Errorf("migrations: %w", err)
	}
	all := versions()
	if !exists {
		return len(all), nil
	}
	rows, err := pool.Query(ctx, `SELECT version_id FROM goose_db_version WHERE is_applied`)
	if err != nil {
		return 0, fmt.Errorf("migrations: %w", err)
	}
	applied := map[int64]bool{}
	for rows.Next() {
		var v int64
		if err := rows.Scan(&v); err != nil {
			rows.Close()
			return 0, fmt.Errorf("migrations: %w", err)
		}
		applied[v] = true
	}
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("migrations: %w", err)
	}
	pending := 0
	for _, v := range all {
		if !applied[v] {
			pending++
		}
	}
	return pending, nil
}

// versions are the embedded migrations' numbers, read from their names
// (00002_payments.sql is version 2) as goose reads them.
func versions() []int64 {
	entries, _ := fs.ReadDir(Files, ".")
	var out []int64
	for _, e := range entries {
		num, _, _ := strings.Cut(e.Name(), "_")
		if v, err := strconv.ParseInt(num, 10, 64); err == nil {
			out = append(out, v)
		}
	}
	return out
}
