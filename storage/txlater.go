package storage

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// A transaction's last writes often return nothing its caller waits for:
// a settlement's posting, its postback and the notification marked
// processed. Each was a round trip of its own before the COMMIT's. They
// are queued instead (later) and sent with the COMMIT in one pipeline: one
// round trip for all of them. Any other statement of the transaction sends
// what is queued first, so statements still run in the order written and
// each sees what the ones before it wrote. A queued statement's error
// aborts the transaction as it would have at once: InTx returns it, and
// nothing of the transaction is written.

// later queues sql into tx's pipeline of statements sent with its commit,
// when tx is one of PixGate's transactions (InTx); done (nil: none) sees
// the statement's row, or its error, when the pipeline runs. Any other tx
// runs it at once.
func later(ctx context.Context, tx pgx.Tx, done func(pgx.Row) error, sql string, args ...any) error {
	if done == nil {
		done = func(r pgx.Row) error {
			if err := r.Scan(); err != nil && !errors.Is(err, pgx.ErrNoRows) {
				return err
			}
			return nil
		}
	}
	if st, ok := tx.(*sqlTx); ok {
		st.later.Queue(sql, args...).QueryRow(done)
		return nil
	}
	return done(tx.QueryRow(ctx, sql, args...))
}

// flush sends what is queued, before a statement that is not: it must see
// what they wrote. An error aborts the transaction; it is kept, and the
// commit returns it.
func (t *sqlTx) flush(ctx context.Context) error {
	if t.err != nil || t.later.Len() == 0 {
		return t.err
	}
	b := t.later
	t.later = pgx.Batch{}
	t.err = t.Tx.SendBatch(ctx, &b).Close()
	return t.err
}

func (t *sqlTx) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	if err := t.flush(ctx); err != nil {
		return pgconn.CommandTag{}, err
	}
	return t.Tx.Exec(ctx, sql, args...)
}

// Query runs sql after what is queued. When that failed the transaction
// is aborted, and so is sql: its rows carry that error, and the commit
// the first one.
func (t *sqlTx) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	_ = t.flush(ctx)
	return t.Tx.Query(ctx, sql, args...)
}

func (t *sqlTx) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	_ = t.flush(ctx)
	return t.Tx.QueryRow(ctx, sql, args...)
}

func (t *sqlTx) SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults {
	_ = t.flush(ctx)
	return t.Tx.SendBatch(ctx, b)
}

func (t *sqlTx) CopyFrom(ctx context.Context, table pgx.Identifier, columns []string, src pgx.CopyFromSource) (int64, error) {
	if err := t.flush(ctx); err != nil {
		return 0, err
	}
	return t.Tx.CopyFrom(ctx, table, columns, src)
}

// commit commits, with what is queued in the same round trip. ended says
// whether the transaction is over on the server (committed, or refused by
// the COMMIT itself); when not, it must be rolled back.
func (t *sqlTx) commit(ctx context.Context) (ended bool, err error) {
	if t.err != nil {
		return false, t.err
	}
	if t.later.Len() == 0 {
		return true, t.Tx.Commit(ctx)
	}
	b := t.later
	t.later = pgx.Batch{}
	committed := false
	b.Queue("COMMIT").Exec(func(ct pgconn.CommandTag) error {
		committed = true
		if ct.String() == "ROLLBACK" { // the transaction had failed before
			return pgx.ErrTxCommitRollback
		}
		return nil
	})
	err = t.Tx.Conn().SendBatch(ctx, &b).Close()
	return committed, err
}
