// Package storage is PixGate's source of truth: a Postgres database reached
// through a pgx pool. Every money movement is a ledger posting written in the
// same SQL transaction as the state change that caused it.
package storage

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pixgate/pixgate/storage/migrations"
)

// Config says how to reach Postgres.
type Config struct {
	// URL is a libpq connection URL, e.g. postgres://postgres@127.0.0.1:5432/pixgate.
	URL string
	// MaxConns caps the pool; zero keeps pgx's default (4 or the CPU count).
	MaxConns int32
	// CreateIfMissing creates the database when it does not exist. Only the
	// commands that own the schema (migrate and the service processes) set
	// it; everything else gets ErrNoDatabase.
	CreateIfMissing bool
	// Tracer, when set, sees every query (tests, tracing).
	Tracer pgx.QueryTracer
}

// DB is the handle every other package uses. It is safe for concurrent use.
type DB struct {
	pool     *pgxpool.Pool
	notifier *notifier
	keys     atomic.Pointer[keyCache]    // nil: no key cache (see CacheKeys)
	group    atomic.Pointer[groupCommit] // nil: every create commits alone (see GroupCommit)
}

// Open connects to the database (creating it first when it does not exist
// and cfg.CreateIfMissing is set) and checks the connection.
func Open(ctx context.Context, cfg Config) (*DB, error) {
	if cfg.CreateIfMissing {
		if err := EnsureDatabase(ctx, cfg.URL); err != nil {
			return nil, err
		}
	}
	pc, err := pgxpool.ParseConfig(cfg.URL)
	if err != nil {
		return nil, fmt.Errorf("storage: database URL: %w", err)
	}
	if cfg.MaxConns > 0 {
		pc.MaxConns = cfg.MaxConns
	}
	if cfg.Tracer != nil {
		pc.ConnConfig.Tracer = cfg.Tracer
	}
	pool, err := pgxpool.NewWithConfig(ctx, pc)
	if err != nil {
		return nil, fmt.Errorf("storage: %w", err)
	}
	pingCtx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := pool.Ping(pingCtx); err != nil {
		pool.Close()
		if isMissingDatabase(err) {
			return nil, fmt.Errorf("%w: database %q on %s", ErrNoDatabase, pc.ConnConfig.Database, hostPort(pc.ConnConfig.Host, pc.ConnConfig.Port))
		}
		return nil, fmt.Errorf("storage: cannot reach Postgres at %s: %w", redactURL(cfg.URL), err)
	}
	return &DB{pool: pool, notifier: startNotifier(pool)}, nil
}

// Migrate applies the embedded migrations and returns how many ran.
func (db *DB) Migrate(ctx context.Context) (int, error) { return migrations.Up(ctx, db.pool) }

// CheckMigrated returns ErrNotMigrated unless every embedded migration has
// been applied. It only reads: a database that was never migrated stays
// untouched.
func (db *DB) CheckMigrated(ctx context.Context) error {
	pending, err := migrations.Pending(ctx, db.pool)
	if err != nil {
		return err
	}
	if pending > 0 {
		return fmt.Errorf("%w: %d of %d migrations pending", ErrNotMigrated, pending, migrations.Count())
	}
	return nil
}

// Close stops the notifier and releases every connection.
func (db *DB) Close() {
	db.notifier.close()
	db.pool.Close()
}

// Pool exposes the pgx pool for health checks and tests.
func (db *DB) Pool() *pgxpool.Pool { return db.pool }

// Ping checks that Postgres answers.
func (db *DB) Ping(ctx context.Context) error { return db.pool.Ping(ctx) }

// inTx runs fn inside one SQL transaction: committed when fn returns nil,
// rolled back otherwise.
func (db *DB) inTx(ctx context.Context, fn func(tx pgx.Tx) error) error {
	ptx, err := db.pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("storage: begin: %w", err)
	}
	tx := &sqlTx{Tx: ptx}
	defer func() { _ = tx.Rollback(ctx) }()
	if err := fn(tx); err != nil {
		return err
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("storage: commit: %w", err)
	}
	if tx.wroteOutbox {
		db.notifier.poke()
	}
	return nil
}

// ErrNoDatabase is returned by Open when the database does not exist and
// was not to be created.
var ErrNoDatabase = errors.New("database does not exist")

// ErrNotMigrated is returned by CheckMigrated when the schema is missing or
// behind the binary's.
var ErrNotMigrated = errors.New("database is not migrated")

// ErrNotFound is returned when a record does not exist (or belongs to
// another integrator: the two are never told apart).
var ErrNotFound = errors.New("not found")

func notFound(err error) error {
	if errors.Is(err, pgx.ErrNoRows) {
		return ErrNotFound
	}
	return err
}
