package storage

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// Payout deadlines (docs/operations.md, "Payout deadlines (betting
// operators)"): a withdrawal with a due_at is near its deadline in the
// last fifth of the time from its creation to its due_at, or in its last
// NearDeadlineFloor, whichever starts first; late once due_at passes
// while it is not final, or when it became final after it.

// NearDeadlineFloor is the least time before its due_at a withdrawal
// counts as near its deadline.
const NearDeadlineFloor = 15 * time.Minute

// NearDeadlineShare is the share of a withdrawal's time to its due_at
// (from its creation) at whose start it counts as near: its last fifth.
const NearDeadlineShare = 5 // 1/5

// MaxPayoutDeadline bounds an integrator's payout deadline.
const MaxPayoutDeadline = 30 * 24 * time.Hour

// DeadlineNearAt is when a withdrawal created at created and due at due
// counts as near its deadline: due less the larger of a fifth of the
// time between and NearDeadlineFloor, never before created.
func DeadlineNearAt(created, due time.Time) time.Time {
	before := max(due.Sub(created)/NearDeadlineShare, NearDeadlineFloor)
	near := due.Add(-before)
	if near.Before(created) {
		return created
	}
	return near
}

// nearAt is DeadlineNearAt of a withdrawal created now, nil without a
// due_at.
func nearAt(due *time.Time) *time.Time {
	if due == nil {
		return nil
	}
	n := DeadlineNearAt(time.Now(), *due)
	return &n
}

// SetPayoutDeadline sets the integrator's payout deadline (zero: none),
// for withdrawals created from now on; the API processes' key cache
// learns of it at once (the integrators_changed trigger).
func (db *DB) SetPayoutDeadline(ctx context.Context, integratorID int64, d time.Duration) (Integrator, error) {
	if d < 0 || d > MaxPayoutDeadline {
		return Integrator{}, fmt.Errorf("a payout deadline is between 0 and %s", MaxPayoutDeadline)
	}
	rows, _ := db.pool.Query(ctx, `UPDATE integrators SET payout_deadline = nullif($2::interval, interval '0') WHERE id = $1
		RETURNING `+integratorColumns, integratorID, d)
	in, err := pgx.CollectExactlyOneRow(rows, scanIntegrator)
	return in, notFound(err)
}
