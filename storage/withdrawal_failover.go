package storage

import (
	"context"
	"fmt"

	"github.com/google/uuid"
)

// StartWithdrawalSend records that a send of a PROCESSING, unsent
// withdrawal to the provider it records begins, and reports whether it is
// the first there: only then does a send that reached nothing (a refused
// connection) prove the provider has no record of it.
func (db *DB) StartWithdrawalSend(ctx context.Context, id uuid.UUID) (first bool, err error) {
	tag, err := db.pool.Exec(ctx, `UPDATE withdrawals SET send_started = true
		WHERE id = $1 AND NOT send_started AND status = 'PROCESSING' AND pix_id IS NULL`, id)
	if err != nil {
		return false, fmt.Errorf("storage: start withdrawal send %s: %w", id, err)
	}
	return tag.RowsAffected() == 1, nil
}

// MoveWithdrawal records that a PROCESSING withdrawal no provider accepted
// moves from provider from to provider to, its next send there a first
// one. ErrStateChanged: it was accepted, finished or moved meanwhile.
func (db *DB) MoveWithdrawal(ctx context.Context, id uuid.UUID, from, to string) error {
	tag, err := db.pool.Exec(ctx, `UPDATE withdrawals SET provider = $3, send_started = false, updated_at = now()
		WHERE id = $1 AND provider = $2 AND status = 'PROCESSING' AND pix_id IS NULL`, id, from, to)
	if err != nil {
		return fmt.Errorf("storage: move withdrawal %s: %w", id, err)
	}
	if tag.RowsAffected() != 1 {
		return fmt.Errorf("storage: move withdrawal %s from %s: %w", id, from, ErrStateChanged)
	}
	return nil
}
