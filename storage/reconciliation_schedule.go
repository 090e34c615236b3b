package storage

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// The worker's schedule of days to reconcile: a row per provider and day
// (reconciliation_days), due at next_run_at, claimed by one worker at a
// time, so that each day is run once across all workers, and again when
// its grace period ends while items are still expected.

// ScheduleReconciliation makes a provider's day due at at, unless it is
// scheduled or reconciled already: every worker may ask, the first one
// counts.
func (db *DB) ScheduleReconciliation(ctx context.Context, provider, day string, at time.Time) error {
	_, err := db.pool.Exec(ctx, `INSERT INTO reconciliation_days (provider, day, next_run_at) VALUES ($1, $2::date, $3)
		ON CONFLICT (provider, day) DO NOTHING`, provider, day, at)
	if err != nil {
		return fmt.Errorf("storage: schedule reconciliation: %w", err)
	}
	return nil
}

// ClaimReconciliation claims the due day that has waited longest, for
// lease: no other worker claims it until then (or until its run ends). ok
// is false when no day is due.
func (db *DB) ClaimReconciliation(ctx context.Context, lease time.Duration) (provider, day string, attempts int, ok bool, err error) {
	err = db.pool.QueryRow(ctx, `UPDATE reconciliation_days d SET claimed_until = now() + $1::interval, attempts = d.attempts + 1, updated_at = now()
		FROM (SELECT provider, day FROM reconciliation_days
			WHERE next_run_at <= now() AND (claimed_until IS NULL OR claimed_until < now())
			ORDER BY next_run_at LIMIT 1 FOR UPDATE SKIP LOCKED) c
		WHERE d.provider = c.provider AND d.day = c.day
		RETURNING d.provider, d.day::text, d.attempts`, lease).Scan(&provider, &day, &attempts)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", "", 0, false, nil
	}
	if err != nil {
		return "", "", 0, false, fmt.Errorf("storage: claim a reconciliation: %w", err)
	}
	return provider, day, attempts, true, nil
}

// ReconciliationFailed sets a claimed day aside until retry, after a run
// that failed; a day never reconciled is marked failed.
func (db *DB) ReconciliationFailed(ctx context.Context, provider, day string, retry time.Time) error {
	_, err := db.pool.Exec(ctx, `UPDATE reconciliation_days SET next_run_at = $3, claimed_until = NULL, updated_at = now(),
		status = CASE WHEN status = 'due' THEN 'failed' ELSE status END WHERE provider = $1 AND day = $2::date`, provider, day, retry)
	if err != nil {
		return fmt.Errorf("storage: set a reconciliation aside: %w", err)
	}
	return nil
}
