package storage

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

// FailChargeAt is FailCharge that also records provider (when not "") as
// the charge's: the provider that may hold it after an outcome nobody could
// resolve, where a retry asks first. One statement, so the failure and the
// provider it names are written together.
func (db *DB) FailChargeAt(ctx context.Context, id uuid.UUID, reason, provider string) (Charge, error) {
	rows, _ := db.pool.Query(ctx, `UPDATE charges SET status = 'FAILED', failure_reason = $2, updated_at = now(),
			provider = coalesce(nullif($3::text, ''), provider)
		WHERE id = $1 AND status = 'PENDING' AND pix_id IS NULL RETURNING `+chargeColumns, id, reason, provider)
	c, err := pgx.CollectExactlyOneRow(rows, scanCharge)
	if err != nil {
		return Charge{}, fmt.Errorf("storage: fail charge %s: %w", id, stateChanged(err))
	}
	return c, nil
}
