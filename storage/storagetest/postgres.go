// Package storagetest gives each test its own Postgres database and its own
// Redis database, so tests never see what another test, package or earlier
// run left behind.
package storagetest

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/migrations"
)

// AdminURL is where test databases are created; PIXGATE_TEST_DATABASE_URL
// overrides it.
func AdminURL() string {
	if u := os.Getenv("PIXGATE_TEST_DATABASE_URL"); u != "" {
		return u
	}
	return "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"
}

const testPrefix = "pixgate_t_"

var (
	templateOnce sync.Once
	templateName string
	templateErr  error
)

// NewDB returns an open handle on a fresh, migrated database that is dropped
// when the test ends.
func NewDB(t testing.TB) *storage.DB {
	t.Helper()
	dbURL := NewDatabaseURL(t)
	db, err := storage.Open(context.Background(), storage.Config{URL: dbURL, MaxConns: 32})
	if err != nil {
		t.Fatalf("storagetest: %v", err)
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
	templateOnce.Do(func() { templateName, templateErr = ensureTemplate(ctx) })
	if templateErr != nil {
		t.Fatalf("storagetest: template database: %v", templateErr)
	}
	name := fmt.Sprintf("%s%d_%s", testPrefix, time.Now().Unix(), randomHex(6))
	if err := adminExec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()+" TEMPLATE "+pgx.Identifier{templateName}.Sanitize()); err != nil {
		t.Fatalf("storagetest: create database: %v", err)
	}
	t.Cleanup(func() {
		_ = adminExec(context.Background(), "DROP DATABASE IF EXISTS "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)")
	})
	return withDatabase(AdminURL(), name)
}

// ensureTemplate builds, once per schema version, a migrated database that
// test databases are cloned from. It is built under a temporary name and
// renamed when complete, so a crashed build is never used. Test databases
// that an interrupted run left behind for more than an hour are dropped.
func ensureTemplate(ctx context.Context) (string, error) {
	dropStale(ctx)
	name := "pixgate_tpl_" + schemaHash()
	conn, err := pgx.Connect(ctx, AdminURL())
	if err != nil {
		return "", err
	}
	defer conn.Close(ctx)
	var exists bool
	if err := conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&exists); err != nil {
		return "", err
	}
	if exists {
		return name, nil
	}
	building := name + "_" + randomHex(4)
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{building}.Sanitize()); err != nil {
		return "", err
	}
	db, err := storage.Open(ctx, storage.Config{URL: withDatabase(AdminURL(), building)})
	if err != nil {
		return "", err
	}
	_, err = db.Migrate(ctx)
	db.Close()
	if err == nil {
		_, err = conn.Exec(ctx, "ALTER DATABASE "+pgx.Identifier{building}.Sanitize()+" RENAME TO "+pgx.Identifier{name}.Sanitize())
	}
	if err != nil {
		// Lost a race with another package building the same template, or
		// the migration failed: either way this copy is not needed.
		_, _ = conn.Exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{building}.Sanitize()+" WITH (FORCE)")
		if strings.Contains(err.Error(), "already exists") {
			return name, nil
		}
		return "", err
	}
	return name, nil
}

// dropStale removes test databases older than an hour: a run that was killed
// could not drop its own.
func dropStale(ctx context.Context) {
	conn, err := pgx.Connect(ctx, AdminURL())
	if err != nil {
		return
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, "SELECT datname FROM pg_database WHERE datname LIKE 'pixgate\\_t\\_%'")
	if err != nil {
		return
	}
	names, _ := pgx.CollectRows(rows, pgx.RowTo[string])
	cutoff := time.Now().Add(-time.Hour).Unix()
	for _, n := range names {
		ts, _, _ := strings.Cut(strings.TrimPrefix(n, testPrefix), "_")
		if created, err := strconv.ParseInt(ts, 10, 64); err == nil && created < cutoff {
			_, _ = conn.Exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{n}.Sanitize()+" WITH (FORCE)")
		}
	}
}

func schemaHash() string {
	h := sha256.New()
	_ = fs.WalkDir(migrations.Files, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, _ := fs.ReadFile(migrations.Files, path)
		h.Write([]byte(path))
		h.Write(b)
		return nil
	})
	return hex.EncodeToString(h.Sum(nil))[:16]
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
