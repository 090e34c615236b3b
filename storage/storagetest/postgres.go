// Package storagetest gives each test its own Postgres database and its own
// Redis database, so tests never see what another test, package or earlier
// run left behind, and never touch what they did not create: every
// database is created by the tests and dropped when they end (by the
// janitor, should the test process die first), and Redis is a private
// server per test process (see NewRedis).
package storagetest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pixgate/pixgate/storage"
)

// AdminURL is where test databases are created; PIXGATE_TEST_DATABASE_URL
// overrides it.
func AdminURL() string {
	if u := os.Getenv("PIXGATE_TEST_DATABASE_URL"); u != "" {
		return u
	}
	return "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"
}

const (
	testPrefix     = "pixgate_t_"
	templatePrefix = "pixgate_tpl_"
)

// templateOnce builds this process's template database.
var templateOnce = sync.OnceValues(func() (string, error) { return buildTemplate(context.Background()) })

// NewDB returns an open handle on a fresh, migrated database that is dropped
// when the test ends.
func NewDB(t testing.TB) *storage.DB {
	t.Helper()
	return NewDBWith(t, storage.Config{})
}

// NewDBWith is NewDB with cfg (its URL is the fresh database's): a pool of
// one connection, say. A MaxConns of zero is PoolSize; without a Tracer of
// its own, a refused connection is reported (see refusalTracer).
func NewDBWith(t testing.TB, cfg storage.Config) *storage.DB {
	t.Helper()
	cfg.URL = NewDatabaseURL(t)
	if cfg.MaxConns == 0 {
		cfg.MaxConns = PoolSize
	}
	Use(t, int(cfg.MaxConns))
	if cfg.Tracer == nil {
		cfg.Tracer = newRefusalTracer(t)
	}
	db, err := storage.Open(context.Background(), cfg)
	if err != nil {
		t.Fatalf("storagetest: %v", explainRefusal(err))
	}
	t.Cleanup(db.Close)
	return db
}

// NewDatabaseURL creates a fresh, migrated database and returns its URL, for
// tests that hand the URL to a process or a command. It is dropped when the
// test ends.
func NewDatabaseURL(t testing.TB) string {
	t.Helper()
	ctx := context.Background()
	templateName, err := templateOnce()
	if err != nil {
		t.Fatalf("storagetest: template database: %v", explainRefusal(err))
	}
	name := fmt.Sprintf("%s%d_%s", testPrefix, time.Now().Unix(), randomHex(6))
	if err := dropAtExit(name); err != nil {
		t.Fatalf("storagetest: %v", err)
	}
	if err := adminExec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()+" TEMPLATE "+pgx.Identifier{templateName}.Sanitize()); err != nil {
		t.Fatalf("storagetest: create database: %v", explainRefusal(err))
	}
	t.Cleanup(func() {
		_ = adminExec(context.Background(), "DROP DATABASE IF EXISTS "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)")
	})
	return withDatabase(AdminURL(), name)
}

// NewDatabaseName returns a database name no other test, run or process
// uses, for tests that create a database themselves (or check that a
// command does not): it is dropped when the test ends and, should the
// process die first, by its janitor.
func NewDatabaseName(t testing.TB) string {
	t.Helper()
	name := fmt.Sprintf("%s%d_%s", testPrefix, time.Now().Unix(), randomHex(6))
	if err := dropAtExit(name); err != nil {
		t.Fatalf("storagetest: %v", err)
	}
	t.Cleanup(func() {
		_ = adminExec(context.Background(), "DROP DATABASE IF EXISTS "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)")
	})
	return name
}

// buildTemplate makes this process's template: a migrated database that
// test databases are cloned from, dropped by the janitor when the process
// ends. Test databases and templates that a run whose janitor could not
// clean up (a machine that went down) left behind are dropped after a day.
func buildTemplate(ctx context.Context) (string, error) {
	dropStale(ctx)
	name := fmt.Sprintf("%s%d_%s", templatePrefix, time.Now().Unix(), randomHex(6))
	if err := dropAtExit(name); err != nil {
		return "", err
	}
	if err := adminExec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()); err != nil {
		return "", err
	}
	db, err := storage.Open(ctx, storage.Config{URL: withDatabase(AdminURL(), name), MaxConns: 2})
	if err != nil {
		return "", err
	}
	_, err = db.Migrate(ctx)
	db.Close()
	return name, err
}

// dropStale removes test databases and templates older than a day, named
// with the time they were made: a run that died with its janitor could not
// drop its own. Nothing else is touched.
func dropStale(ctx context.Context) {
	conn, err := pgx.Connect(ctx, AdminURL())
	if err != nil {
		return
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, `SELECT datname FROM pg_database WHERE datname ~ '^pixgate_(t|tpl)_[0-9]+_[0-9a-f]+$'`)
	if err != nil {
		return
	}
	names, _ := pgx.CollectRows(rows, pgx.RowTo[string])
	cutoff := time.Now().Add(-24 * time.Hour).Unix()
	for _, n := range names {
		rest := strings.TrimPrefix(strings.TrimPrefix(n, testPrefix), templatePrefix)
		ts, _, _ := strings.Cut(rest, "_")
		if created, err := strconv.ParseInt(ts, 10, 64); err == nil && created < cutoff {
			_, _ = conn.Exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{n}.Sanitize()+" WITH (FORCE)")
		}
	}
}

func adminExec(ctx context.Context, sql string) error {
	conn, err := pgx.Connect(ctx, AdminURL())
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, sql)
	return err
}

func withDatabase(rawURL, name string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		panic(err)
	}
	u.Path = "/" + name
	return u.String()
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
