package storage

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

// recordSent stores the provider's transaction id on a transfer not yet
// sent, in one statement that returns nothing: the sender reads nothing
// back. Recording the same id again is harmless; a transfer that already
// has one, or reached a final state, is left unchanged.
func recordSent[T any](ctx context.Context, db *DB, tt transferTable[T], id uuid.UUID, pixID string) error {
	if _, err := db.pool.Exec(ctx, `UPDATE `+tt.table+` SET pix_id = $2, updated_at = now()
		WHERE id = $1 AND pix_id IS NULL`, id, pixID); err != nil {
		return fmt.Errorf("storage: record %s sent: %w", tt.kind, err)
	}
	return nil
}

// redrive asks for another send of a PROCESSING transfer that was never
// sent, through the outbox, and touches it.
func redrive[T any](ctx context.Context, db *DB, tt transferTable[T], id uuid.UUID, msg OutboxMessage) error {
	return db.inTx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE `+tt.table+` SET updated_at = now() WHERE id = $1 AND status = 'PROCESSING' AND pix_id IS NULL`, id)
		if err != nil || tag.RowsAffected() == 0 {
			return err
		}
		return writeOutbox(ctx, tx, msg)
	})
}

// RecordRefundSent is RecordWithdrawalSent for refunds.
func (db *DB) RecordRefundSent(ctx context.Context, id uuid.UUID, pixID string) error {
	return recordSent(ctx, db, refundTransfers, id, pixID)
}

// RedriveRefund is RedriveWithdrawal for refunds.
func (db *DB) RedriveRefund(ctx context.Context, id uuid.UUID, msg OutboxMessage) error {
	return redrive(ctx, db, refundTransfers, id, msg)
}
