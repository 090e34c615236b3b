package storage_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// TestStatementsCountsWhatThePoolSends: every statement the pool sends is
// counted once, whether alone, in a transaction (BEGIN and COMMIT are
// statements), queued in a batch or a COPY; a test's own tracer does not
// change the count.
func TestStatementsCountsWhatThePoolSends(t *testing.T) {
	ctx := context.Background()
	db, err := storage.Open(ctx, storage.Config{URL: storagetest.NewDatabaseURL(t), MaxConns: 2, Tracer: &storage.StatementCounter{}})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	pool := db.Pool()
	if _, err := pool.Exec(ctx, `CREATE TABLE counted (n int)`); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name string
		want uint64
		run  func() error
	}{
		{"exec", 1, func() error { _, err := pool.Exec(ctx, `SELECT 1`); return err }},
		{"query row", 1, func() error { var n int; return pool.QueryRow(ctx, `SELECT 1`).Scan(&n) }},
		{"transaction", 3, func() error {
			return pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error { _, err := tx.Exec(ctx, `SELECT 1`); return err })
		}},
		{"batch", 4, func() error {
			b := &pgx.Batch{}
			b.Queue(`BEGIN`)
			b.Queue(`SELECT 1`)
			b.Queue(`SELECT 2`)
			b.Queue(`COMMIT`)
			return pool.SendBatch(ctx, b).Close()
		}},
		{"copy", 1, func() error {
			_, err := pool.CopyFrom(ctx, pgx.Identifier{"counted"}, []string{"n"}, pgx.CopyFromRows([][]any{{1}, {2}}))
			return err
		}},
	}
	for _, s := range steps {
		before := db.Statements()
		if err := s.run(); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if got := db.Statements() - before; got != s.want {
			t.Errorf("%s: %d statements counted, want %d", s.name, got, s.want)
		}
	}
}
