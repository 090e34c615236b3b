package storage

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/pixgate/pixgate/storage/ledger"
)

func getRefundByID(ctx context.Context, q ledger.Querier, id uuid.UUID) (Refund, error) {
	rows, _ := q.Query(ctx, `SELECT `+refundColumns+` FROM refunds WHERE id = $1`, id)
	f, err := pgx.CollectExactlyOneRow(rows, scanRefund)
	return f, notFound(err)
}

// CompleteRefund moves a PROCESSING refund to COMPLETED and settles its
// reservation like a withdrawal's; the charge becomes REFUNDED once its
// whole amount is refunded. changed is false when it had already left
// PROCESSING.
func (t *Tx) CompleteRefund(ctx context.Context, id uuid.UUID, s Settlement) (f Refund, changed bool, err error) {
	rows, _ := t.tx.Query(ctx, `UPDATE refunds SET status = 'COMPLETED', pix_id = coalesce(pix_id, nullif($2, '')),
			end_to_end_id = nullif($3, ''), updated_at = now(), finished_at = $4
		WHERE id = $1 AND status = 'PROCESSING' RETURNING `+refundColumns, id, s.PixID, s.EndToEndID, s.At)
	f, err = pgx.CollectExactlyOneRow(rows, scanRefund)
	if err == pgx.ErrNoRows {
		f, err = getRefundByID(ctx, t.tx, id)
		return f, false, err
	}
	if err != nil {
		return Refund{}, false, fmt.Errorf("storage: complete refund: %w", err)
	}
	entries := []ledger.Entry{
		{Account: ledger.Of(f.IntegratorID, ledger.Reserved), Amount: -(f.Amount + f.Fee)},
		{Account: ledger.Platform(ledger.Provider), Amount: f.Amount},
	}
	if f.Fee > 0 {
		entries = append(entries, ledger.Entry{Account: ledger.Platform(ledger.Fees), Amount: f.Fee})
	}
	if _, err := t.Post(ctx, ledger.Transaction{Reference: "refund:" + id.String() + ":settle", Kind: "refund.settle", Entries: entries}); err != nil {
		return Refund{}, false, err
	}
	_, err = t.tx.Exec(ctx, `UPDATE charges SET status = 'REFUNDED', updated_at = now()
		WHERE id = $1 AND status = 'PAID' AND refunded_amount = amount
		  AND NOT EXISTS (SELECT 1 FROM refunds WHERE charge_id = $1 AND status = 'PROCESSING')`, f.ChargeID)
	return f, err == nil, err
}

// FailRefund moves a PROCESSING refund to FAILED, returns its reservation to
// the available balance and its amount to the charge's refundable amount.
func (t *Tx) FailRefund(ctx context.Context, id uuid.UUID, reason string) (f Refund, changed bool, err error) {
	rows, _ := t.tx.Query(ctx, `UPDATE refunds SET status = 'FAILED', failure_reason = $2, updated_at = now(), finished_at = now()
		WHERE id = $1 AND status = 'PROCESSING' RETURNING `+refundColumns, id, reason)
	f, err = pgx.CollectExactlyOneRow(rows, scanRefund)
	if err == pgx.ErrNoRows {
		f, err = getRefundByID(ctx, t.tx, id)
		return f, false, err
	}
	if err != nil {
		return Refund{}, false, fmt.Errorf("storage: fail refund: %w", err)
	}
	total := f.Amount + f.Fee
	if _, err := t.Post(ctx, ledger.Transaction{Reference: "refund:" + id.String() + ":release", Kind: "refund.release", Memo: reason,
		Entries: []ledger.Entry{
			{Account: ledger.Of(f.IntegratorID, ledger.Reserved), Amount: -total},
			{Account: ledger.Of(f.IntegratorID, ledger.Available), Amount: total},
		}}); err != nil {
		return Refund{}, false, err
	}
	_, err = t.tx.Exec(ctx, `UPDATE charges SET refunded_amount = refunded_amount - $2, updated_at = now() WHERE id = $1`, f.ChargeID, f.Amount)
	return f, err == nil, err
}

// StaleRefunds is StaleWithdrawals for refunds.
func (db *DB) StaleRefunds(ctx context.Context, olderThan time.Duration, limit int) ([]Refund, error) {
	rows, _ := db.pool.Query(ctx, `SELECT `+refundColumns+` FROM refunds
		WHERE status = 'PROCESSING' AND updated_at < now() - $1::interval ORDER BY updated_at LIMIT $2`, olderThan, limit)
	return pgx.CollectRows(rows, scanRefund)
}

// TouchRefund is TouchWithdrawal for refunds.
func (db *DB) TouchRefund(ctx context.Context, id uuid.UUID) error {
	_, err := db.pool.Exec(ctx, `UPDATE refunds SET updated_at = now() WHERE id = $1 AND status = 'PROCESSING'`, id)
	return err
}
