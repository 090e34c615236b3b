package storage

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

// Deadline notice levels (withdrawals.deadline_notices): none written, the
// DEADLINE_NEAR postback written, the LATE one written.
const (
	deadlineNoticeNear = 1
	deadlineNoticeLate = 2
)

// DueDeadlineNotices returns up to limit withdrawals still PROCESSING
// that owe a deadline postback at now: near their deadline with none
// written, or past it without the LATE one. Read through
// withdrawals_deadline_open_idx: only the withdrawals in flight that
// have reached their near time.
func (db *DB) DueDeadlineNotices(ctx context.Context, now time.Time, limit int) ([]Transfer, error) {
	rows, _ := db.pool.Query(ctx, `SELECT `+KindWithdrawal.columns()+` FROM withdrawals
		WHERE status = 'PROCESSING' AND due_near_at IS NOT NULL AND due_near_at <= $1
		  AND (deadline_notices = 0 OR (deadline_notices < 2 AND due_at <= $1))
		ORDER BY due_near_at LIMIT $2`, now, limit)
	list, err := pgx.CollectRows(rows, KindWithdrawal.scan)
	if err != nil {
		return nil, fmt.Errorf("storage: withdrawals near their deadline: %w", err)
	}
	return list, nil
}

// NoteDeadline records that the withdrawal's deadline notice is written,
// near or late, and writes the postback build makes of it (nil: none) in
// the same transaction: each is written once, and only while the
// withdrawal is PROCESSING. noted is false when it was already written, or
// the withdrawal is final.
func (db *DB) NoteDeadline(ctx context.Context, id uuid.UUID, late bool, build func(Transfer) *NewPostback) (noted bool, err error) {
	level := deadlineNoticeNear
	if late {
		level = deadlineNoticeLate
	}
	err = db.InTx(ctx, func(tx *Tx) error {
		rows, _ := tx.tx.Query(ctx, `UPDATE withdrawals SET deadline_notices = $2
			WHERE id = $1 AND status = 'PROCESSING' AND deadline_notices < $2 RETURNING `+KindWithdrawal.columns(), id, level)
		t, err := pgx.CollectExactlyOneRow(rows, KindWithdrawal.scan)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("storage: note the deadline of withdrawal %s: %w", id, err)
		}
		noted = true
		if np := build(t); np != nil {
			return tx.WritePostback(ctx, *np)
		}
		return nil
	})
	return noted, err
}

// DeadlineCounts are an integrator's withdrawals in flight near their
// deadline and past it.
type DeadlineCounts struct {
	Near, Late int64
}

// PayoutDeadlineCounts counts, by integrator, the withdrawals still
// PROCESSING near their deadline at now and those past it (through
// withdrawals_deadline_open_idx); integrators with neither are absent.
func (db *DB) PayoutDeadlineCounts(ctx context.Context, now time.Time) (map[int64]DeadlineCounts, error) {
	rows, _ := db.pool.Query(ctx, `SELECT integrator_id, count(*) FILTER (WHERE due_at > $1), count(*) FILTER (WHERE due_at <= $1)
		FROM withdrawals WHERE status = 'PROCESSING' AND due_near_at IS NOT NULL AND due_near_at <= $1
		GROUP BY integrator_id`, now)
	out := map[int64]DeadlineCounts{}
	var (
		id int64
		c  DeadlineCounts
	)
	_, err := pgx.ForEachRow(rows, []any{&id, &c.Near, &c.Late}, func() error {
		out[id] = c
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("storage: payout deadline counts: %w", err)
	}
	return out, nil
}

// LateFilter selects the breaches LatePayouts lists: due since Since (and
// before now), of one integrator when IntegratorID is not 0, at most Limit.
type LateFilter struct {
	IntegratorID int64
	Since        time.Time
	Limit        int
}

// LatePayouts lists the withdrawals that broke their deadline: due between
// f.Since and now, and not final by their due_at (still PROCESSING, or
// finished after it), most overdue first (through withdrawals_due_idx).
// Lateness is how far past its due_at each finished, or is now.
func (db *DB) LatePayouts(ctx context.Context, now time.Time, f LateFilter) ([]Transfer, error) {
	rows, _ := db.pool.Query(ctx, `SELECT `+KindWithdrawal.columns()+` FROM withdrawals
		WHERE due_at IS NOT NULL AND due_at >= $1 AND due_at < $2 AND ($3::bigint = 0 OR integrator_id = $3::bigint)
		  AND (status = 'PROCESSING' OR finished_at > due_at)
		ORDER BY coalesce(finished_at, $2) - due_at DESC, id LIMIT $4`, f.Since, now, f.IntegratorID, f.Limit)
	list, err := pgx.CollectRows(rows, KindWithdrawal.scan)
	if err != nil {
		return nil, fmt.Errorf("storage: late payouts: %w", err)
	}
	return list, nil
}

// Lateness is how far past its due_at a withdrawal finished, or is at now
// while in flight; zero when it has no due_at or was on time.
func Lateness(t Transfer, now time.Time) time.Duration {
	if t.DueAt == nil {
		return 0
	}
	end := now
	if t.FinishedAt != nil {
		end = *t.FinishedAt
	}
	return max(end.Sub(*t.DueAt), 0)
}
