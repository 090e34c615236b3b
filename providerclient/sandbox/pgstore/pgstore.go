// Package pgstore keeps a sandbox provider's state in Postgres, so that a
// restarted sandbox still knows every charge, payment and refund it made and
// its balance, as a real provider does.
//
// The state lives in a schema of its own (default "sandbox") that the store
// creates with its tables when missing: it is the provider's state, not
// PixGate's, and is kept apart from PixGate's migrations. One sandbox at a
// time uses a schema: the store holds a Postgres advisory lock on it for as
// long as it is open, and Open fails with ErrInUse while another holds it
// (after Config.LockWait).
//
// The store works on one connection of its own: the sandbox writes one
// change at a time, each in one statement (the record's row and the account
// together), so a change it answered survives a crash.
package pgstore

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/pixgate/pixgate/providerclient/sandbox"
)

// DefaultSchema is the schema the sandbox's tables go in when Config names
// none.
const DefaultSchema = "sandbox"

// Config says where the state lives.
type Config struct {
	// URL is the Postgres connection URL. The database must exist.
	URL string
	// Schema holds the tables. Default DefaultSchema.
	Schema string
	// LockWait is how long Open waits for the schema's lock before
	// ErrInUse: the lock of a sandbox whose process just ended is released
	// only once Postgres has noticed. Default 5s.
	LockWait time.Duration
}

// ErrInUse: another sandbox holds the schema.
var ErrInUse = errors.New("pgstore: another sandbox is using this schema")

// ErrClosed: the store was closed.
var ErrClosed = errors.New("pgstore: store closed")

// Store is a sandbox.Store on Postgres. It is safe for concurrent use, but
// a sandbox calls it one call at a time.
type Store struct {
	cfg Config
	q   queries

	mu     sync.Mutex
	conn   *pgx.Conn // nil or closed: reconnect before the next call
	closed bool
}

var _ sandbox.Store = (*Store)(nil)

// Open connects, takes the schema's lock and creates the schema and its
// tables when missing.
func Open(ctx context.Context, cfg Config) (*Store, error) {
	if cfg.Schema == "" {
		cfg.Schema = DefaultSchema
	}
	if cfg.LockWait <= 0 {
		cfg.LockWait = 5 * time.Second
	}
	s := &Store{cfg: cfg, q: newQueries(pgx.Identifier{cfg.Schema}.Sanitize())}
	s.mu.Lock()
	defer s.mu.Unlock()
	conn, err := s.connect(ctx)
	if err != nil {
		return nil, err
	}
	if _, err := conn.Exec(ctx, s.q.create); err != nil {
		_ = conn.Close(ctx)
		return nil, fmt.Errorf("pgstore: create schema %s: %w", cfg.Schema, err)
	}
	s.conn = conn
	return s, nil
}

// connect opens the store's connection and takes the schema's lock on it.
// Callers hold s.mu.
func (s *Store) connect(ctx context.Context) (*pgx.Conn, error) {
	conn, err := pgx.Connect(ctx, s.cfg.URL)
	if err != nil {
		return nil, fmt.Errorf("pgstore: connect: %w", err)
	}
	if err := s.lock(ctx, conn); err != nil {
		_ = conn.Close(ctx)
		return nil, err
	}
	return conn, nil
}

// lock takes the schema's session lock on conn, waiting at most LockWait.
func (s *Store) lock(ctx context.Context, conn *pgx.Conn) error {
	err := pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT set_config('lock_timeout', $1, true)`, strconv.FormatInt(s.cfg.LockWait.Milliseconds(), 10)); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, lockSQL, lockKey(s.cfg.Schema)) // a session lock: it outlives the transaction
		return err
	})
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "55P03" { // lock_not_available
		return fmt.Errorf("%w (%s)", ErrInUse, s.cfg.Schema)
	}
	if err != nil {
		return fmt.Errorf("pgstore: lock schema %s: %w", s.cfg.Schema, err)
	}
	return nil
}

// use returns the live connection, reconnecting (and taking the lock again)
// after Postgres dropped it. Callers hold s.mu.
func (s *Store) use(ctx context.Context) (*pgx.Conn, error) {
	if s.closed {
		return nil, ErrClosed
	}
	if s.conn != nil && !s.conn.IsClosed() {
		return s.conn, nil
	}
	conn, err := s.connect(ctx)
	if err != nil {
		return nil, err
	}
	s.conn = conn
	return conn, nil
}

// Close releases the lock and the connection. Later calls fail with
// ErrClosed.
func (s *Store) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	if s.conn == nil {
		return
	}
	// Unlocked before the session ends, so a sandbox started next need
	// not wait for Postgres to notice the end.
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_, _ = s.conn.Exec(ctx, unlockSQL, lockKey(s.cfg.Schema))
	_ = s.conn.Close(ctx)
	s.conn = nil
}

// Load returns the account and every record in creation order.
func (s *Store) Load(ctx context.Context) (sandbox.State, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	conn, err := s.use(ctx)
	if err != nil {
		return sandbox.State{}, err
	}
	var st sandbox.State
	err = conn.QueryRow(ctx, s.q.loadAccount).Scan(&st.Account.Available, &st.Account.Pending)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return st, nil
	case err != nil:
		return st, fmt.Errorf("pgstore: load account: %w", err)
	}
	st.Found = true
	rows, err := conn.Query(ctx, s.q.loadRecords)
	if err != nil {
		return st, fmt.Errorf("pgstore: load transactions: %w", err)
	}
	st.Records, err = pgx.CollectRows(rows, scanRecord)
	if err != nil {
		return st, fmt.Errorf("pgstore: load transactions: %w", err)
	}
	return st, nil
}

// Apply writes rec (when not nil) and the account in one statement.
func (s *Store) Apply(ctx context.Context, rec *sandbox.Record, acct sandbox.Account) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	conn, err := s.use(ctx)
	if err != nil {
		return err
	}
	if rec == nil {
		_, err = conn.Exec(ctx, s.q.saveAccount, acct.Available, acct.Pending)
	} else {
		_, err = conn.Exec(ctx, s.q.save, append([]any{acct.Available, acct.Pending}, recordArgs(rec)...)...)
	}
	if err != nil {
		return fmt.Errorf("pgstore: save: %w", err)
	}
	return nil
}
