// Package migrations holds PixGate's schema as numbered SQL files, embedded
// in the binary and applied with goose.
package migrations

import (
	"context"
	"embed"
	"fmt"

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
