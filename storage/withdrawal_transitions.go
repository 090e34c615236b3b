package storage

import (
	"context"
	"fmt"
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
// that already reached a final state is returned unchanged.
func (db *DB) RecordWithdrawalSent(ctx context.Context, id uuid.UUID, pixID string) (Withdrawal, error) {
	rows, _ := db.pool.Query(ctx, `UPDATE withdrawals SET pix_id = $2, updated_at = now()
		WHERE id = $1 AND pix_id IS NULL RETURNING `+withdrawalColumns, id, pixID)
	w, err := pgx.CollectExactlyOneRow(rows, scanWithdrawal)
	if err == pgx.ErrNoRows {
		return db.WithdrawalByID(ctx, id)
	}
	if err != nil {
		return Withdrawal{}, fmt.Errorf("storage: record withdrawal sent: %w", err)
	}
	return w, nil
}

// FailWithdrawal moves a PROCESSING withdrawal to FAILED and returns its
// reservation to the available balance. changed is false (and nothing is
// written) when the withdrawal had already left PROCESSING.
func (t *Tx) FailWithdrawal(ctx context.Context, id uuid.UUID, reason string) (w Withdrawal, changed bool, err error) {
	rows, _ := t.tx.Query(ctx, `UPDATE withdrawals SET status = 'FAILED', failure_reason = $2, updated_at = now(), finished_at = now()
		WHERE id = $1 AND status = 'PROCESSING' RETURNING `+withdrawalColumns, id, reason)
	w, err = pgx.CollectExactlyOneRow(rows, scanWithdrawal)
	if err == pgx.ErrNoRows {
		w, err = getWithdrawalByID(ctx, t.tx, id)
		return w, false, err
	}
	if err != nil {
		return Withdrawal{}, false, fmt.Errorf("storage: fail withdrawal: %w", err)
	}
	total := w.Amount + w.Fee
	_, err = t.Post(ctx, ledger.Transaction{
		Reference: "withdrawal:" + id.String() + ":release",
		Kind:      "withdrawal.release",
		Memo:      reason,
		Entries: []ledger.Entry{
			{Account: ledger.Of(w.IntegratorID, ledger.Reserved), Amount: -total},
			{Account: ledger.Of(w.IntegratorID, ledger.Available), Amount: total},
		},
	})
	return w, err == nil, err
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
func (t *Tx) CompleteWithdrawal(ctx context.Context, id uuid.UUID, s Settlement) (w Withdrawal, changed bool, err error) {
	rows, _ := t.tx.Query(ctx, `UPDATE withdrawals SET status = 'COMPLETED', pix_id = coalesce(pix_id, nullif($2, '')),
			end_to_end_id = nullif($3, ''), updated_at = now(), finished_at = $4
		WHERE id = $1 AND status = 'PROCESSING' RETURNING `+withdrawalColumns, id, s.PixID, s.EndToEndID, s.At)
	w, err = pgx.CollectExactlyOneRow(rows, scanWithdrawal)
	if err == pgx.ErrNoRows {
		w, err = getWithdrawalByID(ctx, t.tx, id)
		return w, false, err
	}
	if err != nil {
		return Withdrawal{}, false, fmt.Errorf("storage: complete withdrawal: %w", err)
	}
	entries := []ledger.Entry{
		{Account: ledger.Of(w.IntegratorID, ledger.Reserved), Amount: -(w.Amount + w.Fee)},
		{Account: ledger.Platform(ledger.Provider), Amount: w.Amount},
	}
	if w.Fee > 0 {
		entries = append(entries, ledger.Entry{Account: ledger.Platform(ledger.Fees), Amount: w.Fee})
	}
	_, err = t.Post(ctx, ledger.Transaction{
		Reference: "withdrawal:" + id.String() + ":settle",
		Kind:      "withdrawal.settle",
		Entries:   entries,
	})
	return w, err == nil, err
}

func getWithdrawalByID(ctx context.Context, q ledger.Querier, id uuid.UUID) (Withdrawal, error) {
	rows, _ := q.Query(ctx, `SELECT `+withdrawalColumns+` FROM withdrawals WHERE id = $1`, id)
	w, err := pgx.CollectExactlyOneRow(rows, scanWithdrawal)
	return w, notFound(err)
}

// StaleWithdrawals returns withdrawals still PROCESSING whose last change is
// older than olderThan, least recently touched first: the reconciler asks
// the provider about them (or sends them again when they were never sent).
func (db *DB) StaleWithdrawals(ctx context.Context, olderThan time.Duration, limit int) ([]Withdrawal, error) {
	rows, _ := db.pool.Query(ctx, `SELECT `+withdrawalColumns+` FROM withdrawals
		WHERE status = 'PROCESSING' AND updated_at < now() - $1::interval ORDER BY updated_at LIMIT $2`, olderThan, limit)
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
	return db.inTx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE withdrawals SET updated_at = now() WHERE id = $1 AND status = 'PROCESSING' AND pix_id IS NULL`, id)
		if err != nil || tag.RowsAffected() == 0 {
			return err
		}
		return writeOutbox(ctx, tx, msg)
	})
}

// WithdrawalByPixID returns the withdrawal the provider knows as pixID.
func (db *DB) WithdrawalByPixID(ctx context.Context, pixID string) (Withdrawal, error) {
	rows, _ := db.pool.Query(ctx, `SELECT `+withdrawalColumns+` FROM withdrawals WHERE pix_id = $1`, pixID)
	w, err := pgx.CollectExactlyOneRow(rows, scanWithdrawal)
	return w, notFound(err)
}
