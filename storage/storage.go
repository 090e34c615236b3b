// Package storage is PixGate's source of truth: a Postgres database reached
// through a pgx pool. Every money movement is a ledger posting written in the
// same SQL transaction as the state change that caused it.
package storage

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/multitracer"
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
	// AcquireTimeout bounds every wait for a pooled connection; zero means
	// DefaultAcquireTimeout. A call that waited this long fails with
	// context.DeadlineExceeded (Unavailable reports it).
	AcquireTimeout time.Duration
	// CloseTimeout bounds how long Close waits for connections still in
	// use; zero means DefaultCloseTimeout.
	CloseTimeout time.Duration
	// Timeouts, set on every connection of the pool, bound how long a
	// statement may wait and run (TimedOut reports an error of theirs).
	// Zero: Postgres's own settings. Migrate runs on connections of its
	// own without them.
	Timeouts SessionTimeouts
}

// SessionTimeouts are Postgres session settings that keep one caller from
// holding a pooled connection for long: a request waiting on a row lock
// another transaction holds gives up after Lock (lock_timeout) and
// releases its connection; a statement is cut after Statement
// (statement_timeout); a session idle inside a transaction for
// IdleInTransaction (idle_in_transaction_session_timeout) is ended by
// Postgres, releasing its locks. Zero leaves a setting as the server has
// it. The API sets them; the worker's long operations (a day's
// reconciliation) do not.
type SessionTimeouts struct {
	Lock, Statement, IdleInTransaction time.Duration
}

// params are the timeouts as connection parameters, in milliseconds.
func (t SessionTimeouts) params() map[string]string {
	m := map[string]string{}
	for name, d := range map[string]time.Duration{"lock_timeout": t.Lock, "statement_timeout": t.Statement,
		"idle_in_transaction_session_timeout": t.IdleInTransaction} {
		if d > 0 {
			m[name] = strconv.FormatInt(max(d.Milliseconds(), 1), 10)
		}
	}
	return m
}

// DB is the handle every other package uses. It is safe for concurrent use.
type DB struct {
	pool         *pgxpool.Pool
	enqueuer     atomic.Pointer[Enqueuer] // nil: the relay queues every outbox row (see EnqueueAfterCommit)
	acquire      *acquireDeadline
	statements   *StatementCounter // see Statements
	starved      atomic.Bool       // see WatchPool
	closeTimeout time.Duration
	keys         atomic.Pointer[keyCache]  // nil: no key cache (see CacheKeys)
	group        atomic.Pointer[committer] // nil: every create commits alone (see GroupCommit)
	shared       atomic.Pointer[committer] // nil: every pipeline commits alone (see ShareCommits)
	routes       routeCache                // see RouteFor
	defaultLimit atomic.Pointer[PixLimit]  // the default provider's, from the environment (see SetDefaultPixLimit)
	eventIDs     *idBlock                  // provider events' ids (see RecordProviderEvent)
	// migrateConfig is the pool's configuration without Config.Timeouts,
	// for Migrate; nil when there are none.
	migrateConfig *pgxpool.Config
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
	acquire := &acquireDeadline{timeout: cmp.Or(cfg.AcquireTimeout, DefaultAcquireTimeout)}
	acquire.lastAcquired.Store(time.Now().UnixNano())
	tracer := &poolTracer{acquireDeadline: acquire, StatementCounter: &StatementCounter{}}
	pc.ConnConfig.Tracer = tracer
	if cfg.Tracer != nil {
		pc.ConnConfig.Tracer = multitracer.New(tracer, cfg.Tracer)
	}
	var migrateConfig *pgxpool.Config
	if params := cfg.Timeouts.params(); len(params) > 0 {
		migrateConfig = pc.Copy()
		for k, v := range params {
			pc.ConnConfig.RuntimeParams[k] = v
		}
	}
	pool, err := pgxpool.NewWithConfig(ctx, pc)
	if err != nil {
		return nil, fmt.Errorf("storage: %w", err)
	}
	pingCtx, cancel := context.WithTimeout(withoutAcquireDeadline(ctx), 5*time.Second)
	defer cancel()
	if err := pool.Ping(pingCtx); err != nil {
		pool.Close()
		if isMissingDatabase(err) {
			return nil, fmt.Errorf("%w: database %q on %s", ErrNoDatabase, pc.ConnConfig.Database, hostPort(pc.ConnConfig.Host, pc.ConnConfig.Port))
		}
		return nil, connectError(ctx, &pc.ConnConfig.Config, err)
	}
	return &DB{pool: pool, acquire: acquire, statements: tracer.StatementCounter, closeTimeout: cmp.Or(cfg.CloseTimeout, DefaultCloseTimeout),
		eventIDs: newIDBlock("provider_events_id_seq"), migrateConfig: migrateConfig}, nil
}

// Migrate applies the embedded migrations and returns how many ran. With
// Config.Timeouts it runs on a pool of its own without them: a migration
// may rightly wait for a lock or run long, once, before the process serves.
func (db *DB) Migrate(ctx context.Context) (int, error) {
	if db.migrateConfig == nil {
		return migrations.Up(ctx, db.pool)
	}
	pool, err := pgxpool.NewWithConfig(ctx, db.migrateConfig)
	if err != nil {
		return 0, fmt.Errorf("storage: %w", err)
	}
	defer pool.Close()
	return migrations.Up(ctx, pool)
}

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

// DefaultCloseTimeout is how long Close waits for connections still in use
// when Config.CloseTimeout is zero.
const DefaultCloseTimeout = 5 * time.Second

// Close closes the pool: at once when no connection
// is in use, else when the last one is released or after the close
// timeout, whichever comes first. pgxpool's Close waits for every held
// connection, so a call stuck holding one would keep a stopping process
// alive for good; past the timeout Close returns and the connections still
// held are closed as they are released, or by the process's exit.
func (db *DB) Close() {
	closed := make(chan struct{})
	go func() {
		defer close(closed)
		db.pool.Close()
	}()
	timer := time.NewTimer(db.closeTimeout)
	defer timer.Stop()
	select {
	case <-closed:
	case <-timer.C:
	}
}

// Pool exposes the pgx pool for health checks and tests.
func (db *DB) Pool() *pgxpool.Pool { return db.pool }

// Ping checks that Postgres answers.
func (db *DB) Ping(ctx context.Context) error { return db.pool.Ping(ctx) }

// inTx runs fn inside one SQL transaction: committed when fn returns nil,
// rolled back otherwise.
func (db *DB) inTx(ctx context.Context, fn func(tx pgx.Tx) error) error {
	conn, err := db.pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("storage: begin: %w", err)
	}
	defer conn.Release()
	ptx, err := conn.Begin(ctx)
	if err != nil {
		return fmt.Errorf("storage: begin: %w", err)
	}
	tx := &sqlTx{Tx: ptx}
	ended := false
	defer func() {
		if !ended {
			_ = ptx.Rollback(ctx)
		}
	}()
	if err := fn(tx); err != nil {
		if tx.err != nil {
			return tx.err // a queued statement failed: the cause of what fn met after it
		}
		return err
	}
	if ended, err = tx.commit(ctx); err != nil {
		return fmt.Errorf("storage: commit: %w", err)
	}
	db.afterCommit(ctx, tx.outbox)
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
