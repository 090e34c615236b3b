package storage

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/pixgate/pixgate/storage/ledger"
)

// WithdrawalByID returns a withdrawal by id, whoever owns it (for workers).
func (db *DB) WithdrawalByID(ctx context.Context, id uuid.UUID) (Withdrawal, error) {
	return getWithdrawalByID(ctx, db.pool, id)
}

// RecordWithdrawalSent stores the provider's transaction id on a withdrawal
// still PROCESSING. Recording the same id again is harmless; a withdrawal
// that already reached a final state is left unchanged.
func (db *DB) RecordWithdrawalSent(ctx context.Context, id uuid.UUID, pixID string) error {
	return recordSent(ctx, db, withdrawalTransfers, id, pixID)
}

// FailWithdrawal moves a PROCESSING withdrawal to FAILED and returns its
// reservation to the available balance. changed is false (and nothing is
// written) when the withdrawal had already left PROCESSING.
func (t *Tx) FailWithdrawal(ctx context.Context, id uuid.UUID, f Failure) (Withdrawal, bool, error) {
	return failTransfer(ctx, t, withdrawalTransfers, id, f)
}

// Settlement is what the provider reports of a completed payment.
type Settlement struct {
	PixID      string
	EndToEndID string
	At         time.Time
}

// CompleteWithdrawal moves a PROCESSING withdrawal to COMPLETED and settles
// its reservation: the amount leaves through the provider, the fee goes to
// the platform. changed is false (and nothing is written) when the
// withdrawal had already left PROCESSING.
func (t *Tx) CompleteWithdrawal(ctx context.Context, id uuid.UUID, s Settlement) (Withdrawal, bool, error) {
	return completeTransfer(ctx, t, withdrawalTransfers, id, s)
}

func getWithdrawalByID(ctx context.Context, q ledger.Querier, id uuid.UUID) (Withdrawal, error) {
	return getByID(ctx, q, "withdrawals", withdrawalColumns, scanWithdrawal, id)
}

// StaleWithdrawals returns withdrawals still PROCESSING whose last change is
// older than olderThan, least recently touched first: the reconciler asks
// the provider about them (or sends them again when they were never sent).
// Those flagged for an operator are left to the operator.
func (db *DB) StaleWithdrawals(ctx context.Context, olderThan time.Duration, limit int) ([]Withdrawal, error) {
	rows, _ := db.pool.Query(ctx, `SELECT `+withdrawalColumns+` FROM withdrawals
		WHERE status = 'PROCESSING' AND flagged_at IS NULL AND updated_at < now() - $1::interval ORDER BY updated_at LIMIT $2`, olderThan, limit)
	return pgx.CollectRows(rows, scanWithdrawal)
}

// TouchWithdrawal notes that the reconciler looked at a withdrawal, so it
// moves to the back of the stale queue.
func (db *DB) TouchWithdrawal(ctx context.Context, id uuid.UUID) error {
	_, err := db.pool.Exec(ctx, `UPDATE withdrawals SET updated_at = now() WHERE id = $1 AND status = 'PROCESSING'`, id)
	return err
}

// RedriveWithdrawal asks for another send of a PROCESSING withdrawal that
// was never sent, through the outbox, and touches it.
func (db *DB) RedriveWithdrawal(ctx context.Context, id uuid.UUID, msg OutboxMessage) error {
	return redrive(ctx, db, withdrawalTransfers, id, msg)
}

// WithdrawalByPixID returns the withdrawal the provider knows as pixID.
func (db *DB) WithdrawalByPixID(ctx context.Context, pixID string) (Withdrawal, error) {
	rows, _ := db.pool.Query(ctx, `SELECT `+withdrawalColumns+` FROM withdrawals WHERE pix_id = $1`, pixID)
	w, err := pgx.CollectExactlyOneRow(rows, scanWithdrawal)
	return w, notFound(err)
}
