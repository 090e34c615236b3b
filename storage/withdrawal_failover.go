package storage

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

// ClaimWithdrawalSend records that a send of a PROCESSING, unsent
// withdrawal to the provider it records begins, and returns the withdrawal
// as it is and the send's number there (1: the first, the only one whose
// refused connection proves the provider has no record of it): the send
// task's read and the start of its send, one statement. A send begins at
// the provider the withdrawal records when it begins, even when it moved
// since the caller last read it. ErrStateChanged: it is not PROCESSING and
// unsent (or does not exist: TransferByID tells).
func (db *DB) ClaimWithdrawalSend(ctx context.Context, id uuid.UUID) (Transfer, int, error) {
	var (
		t     Transfer
		send  int
		found bool
	)
	err := db.pipeline(ctx, func(b *pgx.Batch) {
		queueOne(b, &t, &found, func(r pgx.CollectableRow) (Transfer, error) { return KindWithdrawal.scanWith(r, &send) },
			`UPDATE withdrawals SET sends = sends + 1, sending = sending + 1
			WHERE id = $1 AND status = 'PROCESSING' AND pix_id IS NULL RETURNING `+KindWithdrawal.columns()+`, sends`, id)
	})
	if err != nil {
		return Transfer{}, 0, fmt.Errorf("storage: claim withdrawal send %s: %w", id, err)
	}
	if !found {
		return Transfer{}, 0, fmt.Errorf("storage: claim withdrawal send %s: %w", id, ErrStateChanged)
	}
	return t, send, nil
}

// MoveWithdrawal records that a PROCESSING withdrawal no provider accepted
// moves from provider from to provider to, on the proof of send number
// send there, its next send at to a first one. A send begun at from since
// (another task's), or one begun before and not ended (EndWithdrawalSend),
// may have reached it: then, as when it was accepted, finished or moved
// meanwhile, it fails with ErrStateChanged.
func (db *DB) MoveWithdrawal(ctx context.Context, id uuid.UUID, from, to string, send int) error {
	tag, err := db.pool.Exec(ctx, `UPDATE withdrawals SET provider = $3, sends = 0, updated_at = now()
		WHERE id = $1 AND provider = $2 AND sends = $4 AND sending = 0 AND status = 'PROCESSING' AND pix_id IS NULL`, id, from, to, send)
	if err != nil {
		return fmt.Errorf("storage: move withdrawal %s: %w", id, err)
	}
	if tag.RowsAffected() != 1 {
		return fmt.Errorf("storage: move withdrawal %s from %s: %w", id, from, ErrStateChanged)
	}
	return nil
}

// EndWithdrawalSend records that a send ClaimWithdrawalSend began has
// ended, whatever its outcome (an accepted one's end is recorded with it:
// RecordTransferSent). A send that never records its end (its
// process died) keeps the withdrawal where it is: it is retried and read
// there, never moved.
func (db *DB) EndWithdrawalSend(ctx context.Context, id uuid.UUID) error {
	if _, err := db.pool.Exec(ctx, `UPDATE withdrawals SET sending = greatest(sending - 1, 0) WHERE id = $1`, id); err != nil {
		return fmt.Errorf("storage: end withdrawal send %s: %w", id, err)
	}
	return nil
}
