package storage

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

// CompleteRefund moves a PROCESSING refund to COMPLETED and settles its
// reservation like a withdrawal's; the charge becomes REFUNDED once its
// whole amount is refunded. changed is false when it had already left
// PROCESSING.
func (t *Tx) CompleteRefund(ctx context.Context, id uuid.UUID, s Settlement) (Refund, bool, error) {
	f, changed, err := completeTransfer(ctx, t, refundTransfers, id, s)
	if err != nil || !changed {
		return f, changed, err
	}
	_, err = t.tx.Exec(ctx, `UPDATE charges SET status = 'REFUNDED', updated_at = now()
		WHERE id = $1 AND status = 'PAID' AND refunded_amount = amount
		  AND NOT EXISTS (SELECT 1 FROM refunds WHERE charge_id = $1 AND status = 'PROCESSING')`, f.ChargeID)
	return f, err == nil, err
}

// FailRefund moves a PROCESSING refund to FAILED, returns its reservation to
// the available balance and its amount to the charge's refundable amount.
func (t *Tx) FailRefund(ctx context.Context, id uuid.UUID, reason string) (Refund, bool, error) {
	f, changed, err := failTransfer(ctx, t, refundTransfers, id, reason)
	if err != nil || !changed {
		return f, changed, err
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
