package storage

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

// ClaimDueCharges claims up to limit issued PENDING charges whose check is
// due at now, earliest due first: those never checked and created at least
// first before now, and those whose next check is now or earlier. Each
// claimed charge's next check moves to now + lease, so a tick running at
// the same time on another worker skips it (the rows are claimed under
// FOR UPDATE SKIP LOCKED), and a check that fails, or a worker that dies,
// leaves it due again after the lease. The caller sets the real next check
// with ScheduleChargeCheck. now is the caller's clock, so a test can drive
// the schedule.
func (db *DB) ClaimDueCharges(ctx context.Context, now time.Time, first, lease time.Duration, limit int) ([]Charge, error) {
	rows, _ := db.pool.Query(ctx, `WITH fresh AS (
			SELECT id, created_at + $2::interval AS due FROM charges
			WHERE status = 'PENDING' AND next_check_at IS NULL AND pix_id IS NOT NULL AND created_at <= $1::timestamptz - $2::interval
			ORDER BY created_at LIMIT $4 FOR UPDATE SKIP LOCKED
		), scheduled AS (
			SELECT id, next_check_at AS due FROM charges
			WHERE status = 'PENDING' AND next_check_at <= $1
			ORDER BY next_check_at LIMIT $4 FOR UPDATE SKIP LOCKED
		), due AS (
			SELECT id FROM (SELECT * FROM fresh UNION ALL SELECT * FROM scheduled) d ORDER BY due LIMIT $4
		)
		UPDATE charges SET next_check_at = $1::timestamptz + $3::interval WHERE id IN (SELECT id FROM due)
		RETURNING `+chargeColumns, now, first, lease, limit)
	charges, err := pgx.CollectRows(rows, scanCharge)
	if err != nil {
		return nil, fmt.Errorf("storage: claim due charges: %w", err)
	}
	return charges, nil
}

// ScheduleChargeCheck sets when a PENDING charge is next consulted; a
// charge that left PENDING is not touched.
func (db *DB) ScheduleChargeCheck(ctx context.Context, id uuid.UUID, at time.Time) error {
	_, err := db.pool.Exec(ctx, `UPDATE charges SET next_check_at = $2 WHERE id = $1 AND status = 'PENDING'`, id, at)
	return err
}
