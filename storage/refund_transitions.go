package storage

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/pixgate/pixgate/storage/money"
)

// CompleteRefund moves a PROCESSING refund to COMPLETED and settles its
// reservation like a withdrawal's; the charge becomes REFUNDED once its
// whole amount is refunded. changed is false when it had already left
// PROCESSING.
func (t *Tx) CompleteRefund(ctx context.Context, id uuid.UUID, s Settlement) (Refund, bool, error) {
	if err := lockRefundedCharge(ctx, t, id); err != nil {
		return Refund{}, false, err
	}
	f, changed, err := completeTransfer(ctx, t, refundTransfers, id, s)
	if err != nil || !changed {
		return f, changed, err
	}
	_, err = t.tx.Exec(ctx, `UPDATE charges SET status = 'REFUNDED', updated_at = now()
		WHERE id = $1 AND status = 'PAID' AND refunded_amount = amount
		  AND NOT EXISTS (SELECT 1 FROM refunds WHERE charge_id = $1 AND status = 'PROCESSING')`, f.ChargeID)
	return f, err == nil, err
}

// FailRefund moves a PROCESSING refund to FAILED and returns its amount to
// the charge's refundable amount and its reservation to the wallet: what it
// took from the pending balance goes back there (and to the charge's held
// net) while the charge is still unreleased, so a failed refund never cuts
// a settlement hold short; everything else goes to available. changed is
// false when it had already left PROCESSING.
func (t *Tx) FailRefund(ctx context.Context, id uuid.UUID, why Failure) (Refund, bool, error) {
	if err := lockRefundedCharge(ctx, t, id); err != nil {
		return Refund{}, false, err
	}
	f, changed, err := failTransition(ctx, t, refundTransfers, id, why)
	if err != nil || !changed {
		return f, changed, err
	}
	var toPending money.Money
	if err := t.tx.QueryRow(ctx, `UPDATE charges SET refunded_amount = refunded_amount - $2,
			held_amount = held_amount + CASE WHEN released_at IS NULL THEN $3::bigint ELSE 0 END, updated_at = now()
		WHERE id = $1 RETURNING CASE WHEN released_at IS NULL THEN $3::bigint ELSE 0 END`, f.ChargeID, f.Amount, f.FromPending).Scan(&toPending); err != nil {
		return f, false, fmt.Errorf("storage: fail refund %s: %w", id, err)
	}
	err = postTransferRelease(ctx, t, TransferKind(refundTransfers.kind), id, why.Reason, f.IntegratorID, f.Amount+f.Fee, toPending)
	return f, err == nil, err
}

// lockRefundedCharge locks the charge of refund id before anything else, as
// CreateRefund does: every transaction that touches a refund takes the
// charge's lock and then the wallet's (in the posting), never the other
// way round, so creating and finishing refunds of one charge cannot
// deadlock.
func lockRefundedCharge(ctx context.Context, t *Tx, id uuid.UUID) error {
	if _, err := t.tx.Exec(ctx, `SELECT 1 FROM charges WHERE id = (SELECT charge_id FROM refunds WHERE id = $1) FOR UPDATE`, id); err != nil {
		return fmt.Errorf("storage: lock the refunded charge: %w", err)
	}
	return nil
}

// StaleRefunds is StaleWithdrawals for refunds.
func (db *DB) StaleRefunds(ctx context.Context, olderThan time.Duration, limit int) ([]Refund, error) {
	rows, _ := db.pool.Query(ctx, `SELECT `+refundColumns+` FROM refunds
		WHERE status = 'PROCESSING' AND flagged_at IS NULL AND updated_at < now() - $1::interval ORDER BY updated_at LIMIT $2`, olderThan, limit)
	return pgx.CollectRows(rows, scanRefund)
}

// TouchRefund is TouchWithdrawal for refunds.
func (db *DB) TouchRefund(ctx context.Context, id uuid.UUID) error {
	_, err := db.pool.Exec(ctx, `UPDATE refunds SET updated_at = now() WHERE id = $1 AND status = 'PROCESSING'`, id)
	return err
}
