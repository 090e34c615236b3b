// Package storage is PixGate's source of truth: a Postgres database reached
// through a pgx pool. Every money movement is a ledger posting written in the
// same SQL transaction as the state change that caused it.
package storage

import (
	"context"
	"errors"
	"fmt"
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
}

// DB is the handle every other package uses. It is safe for concurrent use.
type DB struct {
	pool     *pgxpool.Pool
	notifier *notifier
}

// Open connects to the database (creating it first when it does not exist)
// and checks the connection.
func Open(ctx context.Context, cfg Config) (*DB, error) {
	if err := EnsureDatabase(ctx, cfg.URL); err != nil {
		return nil, err
	}
	pc, err := pgxpool.ParseConfig(cfg.URL)
	if err != nil {
		return nil, fmt.Errorf("storage: database URL: %w", err)
	}
	if cfg.MaxConns > 0 {
		pc.MaxConns = cfg.MaxConns
	}
	pool, err := pgxpool.NewWithConfig(ctx, pc)
	if err != nil {
		return nil, fmt.Errorf("storage: %w", err)
	}
	pingCtx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := pool.Ping(pingCtx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("storage: cannot reach Postgres at %s: %w", redactURL(cfg.URL), err)
	}
	return &DB{pool: pool, notifier: startNotifier(pool)}, nil
}

// Migrate applies the embedded migrations and returns how many ran.
func (db *DB) Migrate(ctx context.Context) (int, error) { return migrations.Up(ctx, db.pool) }

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

// ErrNotFound is returned when a record does not exist (or belongs to
// another integrator: the two are never told apart).
var ErrNotFound = errors.New("not found")

func notFound(err error) error {
	if errors.Is(err, pgx.ErrNoRows) {
		return ErrNotFound
	}
	return err
}
