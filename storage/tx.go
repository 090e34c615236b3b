package storage

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/pixgate/pixgate/storage/ledger"
)

// Tx is one SQL transaction in which callers compose a state change, its
// ledger posting and the outbox messages it needs, so that all of them
// happen or none does.
type Tx struct {
	tx pgx.Tx
}

// InTx runs fn inside one SQL transaction: committed when fn returns nil,
// rolled back otherwise.
func (db *DB) InTx(ctx context.Context, fn func(tx *Tx) error) error {
	return db.inTx(ctx, func(tx pgx.Tx) error { return fn(&Tx{tx: tx}) })
}

// Post writes a ledger posting in this transaction (see ledger.Post).
func (t *Tx) Post(ctx context.Context, lt ledger.Transaction) (ledger.Posted, error) {
	return ledger.Post(ctx, t.tx, lt)
}

// postLater is Post for a caller that needs nothing of the posting: it is
// sent with the next statement or the commit (see later), and its error,
// Post's, comes with theirs.
func (t *Tx) postLater(ctx context.Context, lt ledger.Transaction) error {
	sql, args, done, err := ledger.Deferred(lt)
	if err != nil {
		return err
	}
	return later(ctx, t.tx, done, sql, args...)
}
