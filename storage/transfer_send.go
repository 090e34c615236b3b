package storage

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

// RecordTransferSent stores the provider's transaction id on a transfer not
// yet sent, in one statement that returns nothing: the sender reads nothing
// back. Recording the same id again is harmless; a transfer that already
// has one, or reached a final state, is left unchanged. outboxDone is the
// send task's id: its outbox row is deleted in the same statement. A
// withdrawal's send, begun by ClaimWithdrawalSend, ends in the same
// statement too (see EndWithdrawalSend).
func (db *DB) RecordTransferSent(ctx context.Context, kind TransferKind, id uuid.UUID, pixID, outboxDone string) error {
	set := `pix_id = coalesce(pix_id, $2), updated_at = CASE WHEN pix_id IS NULL THEN now() ELSE updated_at END`
	where := `id = $1 AND pix_id IS NULL`
	if kind == KindWithdrawal {
		set += `, sending = greatest(sending - 1, 0)`
		where = `id = $1`
	}
	if err := db.pipeline(ctx, func(b *pgx.Batch) {
		b.Queue(`WITH `+consumeOutbox("$3")+` UPDATE `+kind.spec().table+` SET `+set+`
		WHERE `+where, id, pixID, outboxDone)
	}); err != nil {
		return fmt.Errorf("storage: record %s sent: %w", kind, err)
	}
	return nil
}

// StaleTransfers returns transfers of the kind still PROCESSING whose last
// change is older than olderThan, least recently touched first: the
// reconciler asks the provider about them (or sends them again when they
// were never sent). Those flagged for an operator are left to the
// operator.
func (db *DB) StaleTransfers(ctx context.Context, kind TransferKind, olderThan time.Duration, limit int) ([]Transfer, error) {
	rows, _ := db.pool.Query(ctx, `SELECT `+kind.columns()+` FROM `+kind.spec().table+`
		WHERE status = 'PROCESSING' AND flagged_at IS NULL AND updated_at < now() - $1::interval ORDER BY updated_at LIMIT $2`, olderThan, limit)
	return pgx.CollectRows(rows, kind.scan)
}

// TouchTransfer notes that the reconciler looked at a transfer, so it moves
// to the back of the stale queue.
func (db *DB) TouchTransfer(ctx context.Context, kind TransferKind, id uuid.UUID) error {
	_, err := db.pool.Exec(ctx, `UPDATE `+kind.spec().table+` SET updated_at = now() WHERE id = $1 AND status = 'PROCESSING'`, id)
	return err
}

// RedriveTransfer asks for another send of a PROCESSING transfer that was
// never sent, through the outbox, and touches it.
func (db *DB) RedriveTransfer(ctx context.Context, kind TransferKind, id uuid.UUID, msg OutboxMessage) error {
	return db.inTx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE `+kind.spec().table+` SET updated_at = now() WHERE id = $1 AND status = 'PROCESSING' AND pix_id IS NULL`, id)
		if err != nil || tag.RowsAffected() == 0 {
			return err
		}
		return writeOutbox(ctx, tx, msg)
	})
}
