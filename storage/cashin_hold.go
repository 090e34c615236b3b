package storage

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/pixgate/pixgate/storage/ledger"
	"github.com/pixgate/pixgate/storage/money"
)

// MaxCashInHold is the longest settlement hold an integrator may have.
const MaxCashInHold = 90 * 24 * time.Hour

// ErrInvalidHold: a settlement hold below zero or above MaxCashInHold.
var ErrInvalidHold = fmt.Errorf("the cash-in hold must be between 0 and %v", MaxCashInHold)

// SetCashInHold changes an integrator's settlement hold. It applies to
// charges paid from now on: a charge already paid keeps the available_at it
// was given. held counts the integrator's charges still holding money, which
// the change leaves as they are.
func (db *DB) SetCashInHold(ctx context.Context, integratorID int64, hold time.Duration) (in Integrator, held int, err error) {
	if hold < 0 || hold > MaxCashInHold {
		return Integrator{}, 0, ErrInvalidHold
	}
	rows, _ := db.pool.Query(ctx, `UPDATE integrators SET cashin_hold = $2 WHERE id = $1 RETURNING `+integratorColumns, integratorID, hold)
	if in, err = pgx.CollectExactlyOneRow(rows, scanIntegrator); err != nil {
		return Integrator{}, 0, notFound(err)
	}
	err = db.pool.QueryRow(ctx, `SELECT count(*) FROM charges WHERE integrator_id = $1 AND held_amount > 0`, integratorID).Scan(&held)
	return in, held, err
}

// DueReleases returns up to limit charges whose hold has ended and that
// still hold money, the longest overdue first. A charge whose release failed
// is left out until its retry time.
func (db *DB) DueReleases(ctx context.Context, limit int) ([]uuid.UUID, error) {
	rows, _ := db.pool.Query(ctx, `SELECT id FROM charges
		WHERE held_amount > 0 AND available_at <= now() AND (release_retry_at IS NULL OR release_retry_at <= now())
		ORDER BY available_at LIMIT $1`, limit)
	ids, err := pgx.CollectRows(rows, pgx.RowTo[uuid.UUID])
	if err != nil {
		return nil, fmt.Errorf("storage: due releases: %w", err)
	}
	return ids, nil
}

// ReleaseCharge moves what a charge still holds from the integrator's
// pending balance to its available balance, once its hold has ended: one
// posting, "charge:<id>:release", that can never be written twice. released
// is zero (and nothing is written) when there is nothing to release: another
// worker released it, refunds took it all, the hold has not ended, or
// another transaction has the charge locked right now (it is skipped, not
// waited for, and comes back on a later tick).
func (db *DB) ReleaseCharge(ctx context.Context, id uuid.UUID) (released money.Money, err error) {
	err = db.inTx(ctx, func(tx pgx.Tx) error {
		// What is held and whether the hold has ended are read, not
		// stated in the WHERE: "held_amount > 0 AND available_at <= now()"
		// would let Postgres find the charge through the releases' partial
		// index, every due charge, instead of its primary key (migration 28).
		var (
			integrator int64
			due        bool
		)
		err := tx.QueryRow(ctx, `SELECT integrator_id, held_amount, coalesce(available_at <= now(), false) FROM charges
			WHERE id = $1 AND released_at IS NULL
			FOR UPDATE SKIP LOCKED`, id).Scan(&integrator, &released, &due)
		if errors.Is(err, pgx.ErrNoRows) || (err == nil && (released <= 0 || !due)) {
			released = 0
			return nil
		}
		if err != nil {
			return fmt.Errorf("storage: release charge %s: %w", id, err)
		}
		if _, err := tx.Exec(ctx, `UPDATE charges SET held_amount = 0, released_at = now(), release_retry_at = NULL
			WHERE id = $1`, id); err != nil {
			return fmt.Errorf("storage: release charge %s: %w", id, err)
		}
		_, err = ledger.Post(ctx, tx, chargeHoldEnded(id, integrator, released))
		return err
	})
	if err != nil {
		return 0, err
	}
	return released, nil
}

// DeferRelease leaves a charge whose release failed alone for a while, so
// that the next ticks get on with the others.
func (db *DB) DeferRelease(ctx context.Context, id uuid.UUID, after time.Duration) error {
	_, err := db.pool.Exec(ctx, `UPDATE charges SET release_retry_at = now() + $2::interval WHERE id = $1 AND held_amount > 0`, id, after)
	return err
}
