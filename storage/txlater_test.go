package storage_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// trips records each round trip a pool makes: a statement alone, or a
// batch with its statements.
type trips struct {
	mu   sync.Mutex
	sent [][]string
}

func (r *trips) TraceQueryStart(ctx context.Context, _ *pgx.Conn, d pgx.TraceQueryStartData) context.Context {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sent = append(r.sent, []string{d.SQL})
	return ctx
}

func (r *trips) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

func (r *trips) TraceBatchStart(ctx context.Context, _ *pgx.Conn, d pgx.TraceBatchStartData) context.Context {
	r.mu.Lock()
	defer r.mu.Unlock()
	var stmts []string
	for _, q := range d.Batch.QueuedQueries {
		stmts = append(stmts, q.SQL)
	}
	r.sent = append(r.sent, stmts)
	return ctx
}

func (r *trips) TraceBatchQuery(context.Context, *pgx.Conn, pgx.TraceBatchQueryData) {}
func (r *trips) TraceBatchEnd(context.Context, *pgx.Conn, pgx.TraceBatchEndData)     {}

func (r *trips) reset() [][]string {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := r.sent
	r.sent = nil
	return s
}

func laterDB(t *testing.T) (*storage.DB, *trips) {
	tr := &trips{}
	db := storagetest.NewDBWith(t, storage.Config{MaxConns: 2, Tracer: tr})
	if _, err := db.Pool().Exec(context.Background(), `CREATE TABLE later_probe (id int PRIMARY KEY)`); err != nil {
		t.Fatal(err)
	}
	tr.reset()
	return db, tr
}

// A transaction's statements queued for later (a settlement's posting,
// postback and event mark) travel with its COMMIT: one round trip.
func TestLaterStatementsGoWithTheCommit(t *testing.T) {
	db, tr := laterDB(t)
	ctx := context.Background()
	err := db.InTx(ctx, func(tx *storage.Tx) error {
		if err := tx.Exec(ctx, `INSERT INTO later_probe VALUES (1)`); err != nil {
			return err
		}
		if err := tx.Later(ctx, `INSERT INTO later_probe VALUES (2)`); err != nil {
			return err
		}
		return tx.Later(ctx, `INSERT INTO later_probe VALUES (3)`)
	})
	if err != nil {
		t.Fatal(err)
	}
	sent := tr.reset()
	if len(sent) != 3 || len(sent[2]) != 3 || !strings.EqualFold(sent[2][2], "commit") {
		t.Fatalf("round trips %q; want begin, the insert, then both later inserts with the commit", sent)
	}
	var n int
	if err := db.Pool().QueryRow(ctx, `SELECT count(*) FROM later_probe`).Scan(&n); err != nil || n != 3 {
		t.Fatalf("rows %d (%v); want 3 committed", n, err)
	}
}

// A statement that is not queued sends what is queued first: it sees
// what they wrote.
func TestLaterStatementsAreSentBeforeTheNextOne(t *testing.T) {
	db, _ := laterDB(t)
	ctx := context.Background()
	err := db.InTx(ctx, func(tx *storage.Tx) error {
		if err := tx.Later(ctx, `INSERT INTO later_probe VALUES (1)`); err != nil {
			return err
		}
		n, err := tx.Count(ctx, `SELECT count(*) FROM later_probe`)
		if err == nil && n != 1 {
			t.Errorf("the transaction's read saw %d rows; want the queued insert's", n)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// A queued statement that fails undoes the whole transaction, as it would
// have at once, and InTx says why; the pool's connection is usable after.
func TestAFailedLaterStatementUndoesTheTransaction(t *testing.T) {
	db, _ := laterDB(t)
	ctx := context.Background()
	for _, failing := range []string{
		`INSERT INTO later_probe VALUES (1)`, // the id the transaction wrote already
		`UPDATE later_probe SET id = id / 0`,
	} {
		err := db.InTx(ctx, func(tx *storage.Tx) error {
			if err := tx.Exec(ctx, `INSERT INTO later_probe VALUES (1)`); err != nil {
				return err
			}
			if err := tx.Later(ctx, `INSERT INTO later_probe VALUES (2)`); err != nil {
				return err
			}
			return tx.Later(ctx, failing)
		})
		if err == nil {
			t.Fatalf("%s: InTx committed", failing)
		}
		var n int
		if err := db.Pool().QueryRow(ctx, `SELECT count(*) FROM later_probe`).Scan(&n); err != nil || n != 0 {
			t.Fatalf("%s: %d rows (%v); want none written", failing, n, err)
		}
	}
	// The same failure met by a statement that is not queued.
	err := db.InTx(ctx, func(tx *storage.Tx) error {
		if err := tx.Later(ctx, `UPDATE later_probe SET id = 1 / 0`); err != nil {
			return err
		}
		if err := tx.Exec(ctx, `INSERT INTO later_probe VALUES (5)`); err == nil {
			t.Error("a statement after a failed queued one ran")
		}
		return nil
	})
	if err == nil || !strings.Contains(err.Error(), "division by zero") {
		t.Fatalf("InTx: %v; want the queued statement's error", err)
	}
	// A read after it fails too, and InTx gives the queued statement's error
	// rather than the aborted transaction's.
	err = db.InTx(ctx, func(tx *storage.Tx) error {
		if err := tx.Later(ctx, `UPDATE later_probe SET id = 1 / 0`); err != nil {
			return err
		}
		_, err := tx.Count(ctx, `SELECT count(*) FROM later_probe`)
		return err
	})
	if err == nil || !strings.Contains(err.Error(), "division by zero") {
		t.Fatalf("InTx after a read: %v; want the queued statement's error", err)
	}
	if err := db.InTx(ctx, func(tx *storage.Tx) error { return tx.Later(ctx, `INSERT INTO later_probe VALUES (7)`) }); err != nil {
		t.Fatalf("after the failures: %v", err)
	}
}
