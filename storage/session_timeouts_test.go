package storage_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// Config.Timeouts are set on every connection of the pool, and their
// errors are TimedOut; migrations run without them, so a statement
// timeout far below what a migration takes still lets a new database be
// migrated.
func TestSessionTimeoutsAreSetOnThePoolAndNotOnMigrations(t *testing.T) {
	cc, err := pgx.ParseConfig(storagetest.AdminURL())
	if err != nil {
		t.Fatal(err)
	}
	url := fmt.Sprintf("postgres://%s@%s:%d/%s?sslmode=disable", cc.User, cc.Host, cc.Port, storagetest.NewDatabaseName(t))
	ctx := context.Background()
	db, err := storage.Open(ctx, storage.Config{URL: url, MaxConns: storagetest.SidePool, CreateIfMissing: true,
		Timeouts: storage.SessionTimeouts{Lock: 250 * time.Millisecond, Statement: 2 * time.Millisecond, IdleInTransaction: time.Minute}})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Migrate(ctx); err != nil {
		t.Fatalf("migrations under a 2 ms statement timeout: %v", err)
	}
	// On a loaded machine even a trivial read can overrun 2 ms: such a
	// timeout is what the pool's setting asks for, so it is tried again.
	if err := untilInTime(func() error { return db.CheckMigrated(ctx) }); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"lock_timeout": "250ms", "statement_timeout": "2ms", "idle_in_transaction_session_timeout": "1min"} {
		var got string
		if err := untilInTime(func() error {
			return db.Pool().QueryRow(ctx, "SELECT current_setting($1)", name).Scan(&got)
		}); err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("%s = %s, want %s", name, got, want)
		}
	}
	_, err = db.Pool().Exec(ctx, "SELECT pg_sleep(0.2)")
	if !storage.TimedOut(err) {
		t.Errorf("a statement past statement_timeout: %v is not TimedOut", err)
	}
	for _, e := range []error{nil, errors.New("x"), &pgconn.PgError{Code: "23505"}, context.DeadlineExceeded} {
		if storage.TimedOut(e) {
			t.Errorf("TimedOut(%v)", e)
		}
	}
	if !storage.TimedOut(fmt.Errorf("wrapped: %w", &pgconn.PgError{Code: "55P03"})) {
		t.Error("a lock timeout wrapped is not TimedOut")
	}
}

// untilInTime runs f until it ends other than by a session timeout, at
// most 50 times.
func untilInTime(f func() error) error {
	var err error
	for range 50 {
		if err = f(); !storage.TimedOut(err) {
			return err
		}
	}
	return err
}
