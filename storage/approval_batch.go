package storage

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/pixgate/pixgate/storage/ledger"
	"github.com/pixgate/pixgate/storage/money"
)

// A batch leaves AWAITING_APPROVAL once, as a lone withdrawal does (see
// approval_withdrawal.go): the guarded update is the batch row's, taken
// before its items' rows and the wallet's.

// ApproveBatch moves the integrator's batch from AWAITING_APPROVAL to
// PROCESSING with its items, and writes each item's send (send(id), its
// outbox message) in the same transaction. keyID is the approving key,
// which may not be the one that created the batch (ErrSelfApproval);
// ErrNotAwaitingApproval when it is not waiting, ErrNotFound when the
// integrator has no such batch.
func (db *DB) ApproveBatch(ctx context.Context, integratorID int64, id uuid.UUID, keyID int64, send func(uuid.UUID) OutboxMessage) (WithdrawalBatch, error) {
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		if err := decideBatch(ctx, tx, integratorID, id, keyID, `status = 'PROCESSING', decided_by_key = $3, updated_at = now()`); err != nil {
			return err
		}
		rows, _ := tx.Query(ctx, `UPDATE withdrawals SET status = 'PROCESSING', updated_at = now()
			WHERE batch_id = $1 AND status = 'AWAITING_APPROVAL' RETURNING id`, id)
		ids, err := pgx.CollectRows(rows, pgx.RowTo[uuid.UUID])
		if err != nil {
			return fmt.Errorf("storage: approve batch %s: %w", id, err)
		}
		msgs := make([]OutboxMessage, len(ids))
		for i, item := range ids {
			msgs[i] = send(item)
		}
		return writeOutboxes(ctx, tx, msgs)
	})
	if err != nil {
		return WithdrawalBatch{}, err
	}
	return selectBatch(ctx, db.pool, `b.id = $1`, id)
}

// RejectBatch moves the integrator's batch from AWAITING_APPROVAL to
// REJECTED, its items to FAILED (failure_reason RejectionReason(reason)),
// returns their whole reservation to the available balance in one posting
// (withdrawalBatchRejected) and writes notify, the outbox message that
// posts the postbacks, in one transaction. keyID is the rejecting key;
// errors as ApproveBatch's.
func (db *DB) RejectBatch(ctx context.Context, integratorID int64, id uuid.UUID, keyID int64, reason string, notify OutboxMessage) (WithdrawalBatch, error) {
	return db.rejectBatch(ctx, integratorID, id, keyID, RejectionReason(reason), notify)
}

// ExpireBatchApproval rejects the batch as approval_expired when it still
// awaits approval past its expiry; ErrNotAwaitingApproval otherwise.
func (db *DB) ExpireBatchApproval(ctx context.Context, integratorID int64, id uuid.UUID, notify OutboxMessage) (WithdrawalBatch, error) {
	return db.rejectBatch(ctx, integratorID, id, 0, ReasonApprovalExpired, notify)
}

func (db *DB) rejectBatch(ctx context.Context, integratorID int64, id uuid.UUID, keyID int64, failure string, notify OutboxMessage) (WithdrawalBatch, error) {
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		if err := decideBatch(ctx, tx, integratorID, id, keyID, `status = 'REJECTED', decided_by_key = nullif($3, 0), rejection_reason = $4,
				updated_at = now(), finished_at = now()`, failure); err != nil {
			return err
		}
		var total money.Money
		if err := tx.QueryRow(ctx, `WITH u AS (
				UPDATE withdrawals SET status = 'FAILED', failure_reason = $2, updated_at = now(), finished_at = now()
				WHERE batch_id = $1 AND status = 'AWAITING_APPROVAL' RETURNING amount + fee AS total)
			SELECT coalesce(sum(total), 0) FROM u`, id, failure).Scan(&total); err != nil {
			return fmt.Errorf("storage: reject batch %s: %w", id, err)
		}
		if total > 0 {
			if _, err := ledger.Post(ctx, tx, withdrawalBatchRejected(id, integratorID, total, failure)); err != nil {
				return fmt.Errorf("storage: reject batch %s: %w", id, err)
			}
		}
		return writeOutbox(ctx, tx, notify)
	})
	if err != nil {
		return WithdrawalBatch{}, err
	}
	return selectBatch(ctx, db.pool, `b.id = $1`, id)
}

// decideBatch sets set on the batch if it awaits approval and keyID did
// not create it ($1 id, $2 integrator, $3 key, args from $4); keyID 0 is
// the expiry, which only takes one past its expiry.
func decideBatch(ctx context.Context, tx pgx.Tx, integratorID int64, id uuid.UUID, keyID int64, set string, args ...any) error {
	tag, err := tx.Exec(ctx, `UPDATE withdrawal_batches SET `+set+`
		WHERE id = $1 AND integrator_id = $2 AND status = 'AWAITING_APPROVAL'
		  AND `+decidable(set),
		append([]any{id, integratorID, keyID}, args...)...)
	if err != nil {
		return fmt.Errorf("storage: decide batch %s: %w", id, err)
	}
	if tag.RowsAffected() == 1 {
		return nil
	}
	var (
		status  string
		creator *int64
	)
	err = tx.QueryRow(ctx, `SELECT status, created_by_key FROM withdrawal_batches WHERE id = $1 AND integrator_id = $2`, id, integratorID).Scan(&status, &creator)
	switch {
	case err != nil:
		return notFound(err)
	case status == BatchAwaitingApproval && keyID != 0 && creator != nil && *creator == keyID:
		return ErrSelfApproval
	}
	return ErrNotAwaitingApproval
}

// FinishBatches marks COMPLETED up to limit PROCESSING batches whose items
// are all COMPLETED or FAILED, and for each writes what postback(b), when
// it gives one, says, in the same transaction: a batch finishes, and
// reports it, once.
func (db *DB) FinishBatches(ctx context.Context, limit int, postback func(WithdrawalBatch) (NewPostback, bool)) ([]WithdrawalBatch, error) {
	var done []WithdrawalBatch
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		rows, _ := tx.Query(ctx, `UPDATE withdrawal_batches b SET status = 'COMPLETED', updated_at = now(), finished_at = now()
			WHERE b.id IN (SELECT c.id FROM withdrawal_batches c WHERE c.status = 'PROCESSING' AND c.updated_at IS NOT NULL
				AND NOT EXISTS (SELECT 1 FROM withdrawals w WHERE w.batch_id = c.id AND w.status IN ('PROCESSING', 'AWAITING_APPROVAL'))
				ORDER BY c.updated_at LIMIT $1 FOR UPDATE SKIP LOCKED)
			RETURNING b.id`, limit)
		ids, err := pgx.CollectRows(rows, pgx.RowTo[uuid.UUID])
		if err != nil {
			return fmt.Errorf("storage: finish batches: %w", err)
		}
		for _, id := range ids {
			b, err := selectBatch(ctx, tx, `b.id = $1`, id)
			if err != nil {
				return err
			}
			done = append(done, b)
			if np, ok := postback(b); ok {
				if err := (&Tx{tx: tx}).WritePostback(ctx, np); err != nil {
					return err
				}
			}
		}
		return nil
	})
	return done, err
}

// WithdrawalBatch returns a batch by id, whoever owns it (for workers).
func (db *DB) WithdrawalBatch(ctx context.Context, id uuid.UUID) (WithdrawalBatch, error) {
	return selectBatch(ctx, db.pool, `b.id = $1`, id)
}

// BatchItemsAfter returns up to limit of the batch's items with an id
// above after (uuid.Nil: from the first), in id order: the worker's walk
// over a batch.
func (db *DB) BatchItemsAfter(ctx context.Context, batchID, after uuid.UUID, limit int) ([]Transfer, error) {
	rows, _ := db.pool.Query(ctx, `SELECT `+KindWithdrawal.columns()+` FROM withdrawals WHERE batch_id = $1 AND id > $2 ORDER BY id LIMIT $3`,
		batchID, after, limit)
	items, err := pgx.CollectRows(rows, KindWithdrawal.scan)
	if err != nil {
		return nil, fmt.Errorf("storage: batch items: %w", err)
	}
	return items, nil
}
