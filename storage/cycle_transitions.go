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
	"github.com/pixgate/pixgate/storage/money/due"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// CycleChargePrefix begins the external_id of every recurrence cycle's
// charge (rec-<cycle id>); the charges API refuses it to integrators, so
// that none of their charges takes a cycle's.
const CycleChargePrefix = "rec-"

// ErrCycleBelowFee: a cycle's amount does not exceed its integrator's
// cash-in fee, so its charge cannot be written (a charge must leave a net).
var ErrCycleBelowFee = errors.New("the cycle's amount does not exceed the cash-in fee")

// LockCycle reads a cycle under its lock, for a change that decides from
// what it holds.
func (t *Tx) LockCycle(ctx context.Context, id uuid.UUID) (Cycle, error) {
	rows, _ := t.tx.Query(ctx, `SELECT `+cycleColumns+` FROM recurrence_cycles c WHERE c.id = $1 FOR UPDATE OF c`, id)
	c, err := pgx.CollectExactlyOneRow(rows, scanCycle)
	return c, notFound(err)
}

// IssueCycle records that the provider accepted a SCHEDULED cycle's
// charge (providerID): the cycle becomes CREATED and its charges row is
// written PENDING with the recurrence's payer and postback URL, the
// cash-in fee in force now, and the provider's id as its pix_id. The
// charge is watched through its cycle, never by the charges' own checks
// (next_check_at 'infinity'). changed is false when the cycle was not
// SCHEDULED any more.
func (t *Tx) IssueCycle(ctx context.Context, c Cycle, r Recurrence, providerID string) (Cycle, bool, error) {
	fee, err := cashInFee(ctx, t.tx, r.IntegratorID, c.Amount)
	if err != nil {
		return Cycle{}, false, fmt.Errorf("storage: issue cycle %s: %w", c.ID, err)
	}
	chargeID, err := uuid.NewV7()
	if err != nil {
		return Cycle{}, false, err
	}
	rows, _ := t.tx.Query(ctx, `WITH cy AS (
			SELECT id FROM recurrence_cycles WHERE id = $1 AND status = 'SCHEDULED' FOR UPDATE
		), ch AS (
			INSERT INTO charges (id, integrator_id, external_id, request_hash, amount, fee, status, pix_id, payer_name, payer_document,
				payer_email, postback_url, provider, next_check_at, expires_at)
			SELECT $2, $3, $13 || $1::text, decode(replace($1::text, '-', ''), 'hex'), $4, $5, 'PENDING', $6, $7, $8, $9, $10, $11,
				'infinity', $12 FROM cy RETURNING id
		), c AS (
			UPDATE recurrence_cycles SET status = 'CREATED', provider_id = $6, charge_id = (SELECT id FROM ch), updated_at = now()
			WHERE id = (SELECT id FROM cy) RETURNING *
		) SELECT `+cycleColumns+` FROM c`,
		c.ID, chargeID, r.IntegratorID, c.Amount, fee, providerID, r.Payer.Name, r.Payer.Document, r.Payer.Email, r.PostbackURL,
		r.Provider, lastPayDay(c, r).End(), CycleChargePrefix)
	moved, err := pgx.CollectRows(rows, scanCycle)
	if err != nil {
		return Cycle{}, false, fmt.Errorf("storage: issue cycle %s: %w", c.ID, err)
	}
	if len(moved) == 0 {
		c, err := t.LockCycle(ctx, c.ID)
		return c, false, err
	}
	moved[0].Fee = fee
	return moved[0], true, nil
}

// CashInFee is the cash-in fee the integrator's rule in force takes of
// amount; ErrCycleBelowFee when it would take it all (a charge must leave
// a net).
func (db *DB) CashInFee(ctx context.Context, integratorID int64, amount money.Money) (money.Money, error) {
	return cashInFee(ctx, db.pool, integratorID, amount)
}

func cashInFee(ctx context.Context, q ledger.Querier, integratorID int64, amount money.Money) (money.Money, error) {
	var kind string
	var value int64
	if err := q.QueryRow(ctx, `SELECT cashin_fee_kind, cashin_fee_value FROM integrators WHERE id = $1`, integratorID).
		Scan(&kind, &value); err != nil {
		return 0, err
	}
	fee := feeRule(kind, value).Compute(amount)
	if fee >= amount {
		return fee, ErrCycleBelowFee
	}
	return fee, nil
}

// lastPayDay is the last day a cycle's charge may be paid: its retry
// range's last day, or its due date without retries.
func lastPayDay(c Cycle, r Recurrence) due.Date {
	next, _ := r.Calendar.Due(c.N + 1)
	if _, last, ok := r.RetryPolicy.RetryRange(c.DueDate, next); ok {
		return last
	}
	return c.DueDate
}

// CycleChange is a cycle's move to another status, with what the
// provider said of it.
type CycleChange struct {
	To            recurrence.CycleStatus
	Retries       int
	RejectionCode string
	CancelledBy   string
	FailureReason string
	EndToEndID    string
	PaidAt        time.Time
}

// MoveCycle moves a cycle from status from to ch.To, guarded by from:
// changed is false (and the cycle as it is returned) when it is no longer
// there. The retries count is kept as the provider's attempts say, whatever
// the status.
func (t *Tx) MoveCycle(ctx context.Context, id uuid.UUID, from recurrence.CycleStatus, ch CycleChange) (Cycle, bool, error) {
	var paid *time.Time
	if !ch.PaidAt.IsZero() {
		paid = &ch.PaidAt
	}
	rows, _ := t.tx.Query(ctx, `WITH c AS (UPDATE recurrence_cycles SET status = $3, retries = greatest(retries, $4), updated_at = now(),
			rejection_code = coalesce(nullif($5, ''), rejection_code), cancelled_by = coalesce(nullif($6, ''), cancelled_by),
			failure_reason = coalesce(nullif($7, ''), failure_reason), end_to_end_id = coalesce(nullif($8, ''), end_to_end_id),
			paid_at = CASE WHEN $3 = 'PAID' THEN coalesce($9, paid_at, now()) ELSE paid_at END
		WHERE id = $1 AND status = $2 RETURNING *) SELECT `+cycleColumns+` FROM c`,
		id, from, ch.To, ch.Retries, ch.RejectionCode, ch.CancelledBy, ch.FailureReason, ch.EndToEndID, paid)
	moved, err := pgx.CollectRows(rows, scanCycle)
	if err != nil {
		return Cycle{}, false, fmt.Errorf("storage: move cycle %s: %w", id, err)
	}
	if len(moved) == 0 {
		c, err := t.LockCycle(ctx, id)
		return c, false, err
	}
	return moved[0], true, nil
}

// SetCycleRetries records the retries the provider's attempts count, when
// no status changes with them.
func (t *Tx) SetCycleRetries(ctx context.Context, id uuid.UUID, retries int) error {
	_, err := t.tx.Exec(ctx, `UPDATE recurrence_cycles SET retries = $2, updated_at = now() WHERE id = $1 AND retries < $2`, id, retries)
	return err
}

// RecordAttempt records attempt seq of a cycle as the provider reports
// it: written the first time, updated when its status moved. changed is
// false when it was recorded so already (nothing is written).
func (t *Tx) RecordAttempt(ctx context.Context, a CycleAttempt) (CycleAttempt, bool, error) {
	id, err := uuid.NewV7()
	if err != nil {
		return CycleAttempt{}, false, err
	}
	rows, _ := t.tx.Query(ctx, `INSERT INTO recurrence_attempts (id, cycle_id, seq, kind, settle_on, status, end_to_end_id, rejection_code)
		VALUES ($1, $2, $3, $4, $5::date, $6, $7, $8)
		ON CONFLICT (cycle_id, seq) DO UPDATE SET status = EXCLUDED.status, settle_on = EXCLUDED.settle_on, updated_at = now(),
			end_to_end_id = coalesce(EXCLUDED.end_to_end_id, recurrence_attempts.end_to_end_id),
			rejection_code = coalesce(EXCLUDED.rejection_code, recurrence_attempts.rejection_code)
		WHERE recurrence_attempts.status IS DISTINCT FROM EXCLUDED.status RETURNING `+attemptColumns,
		id, a.CycleID, a.Seq, a.Kind, a.SettleOn.String(), a.Status, a.EndToEndID, a.RejectionCode)
	got, err := pgx.CollectRows(rows, scanAttempt)
	if err != nil {
		return CycleAttempt{}, false, fmt.Errorf("storage: record attempt %d of %s: %w", a.Seq, a.CycleID, err)
	}
	if len(got) == 0 {
		return a, false, nil
	}
	return got[0], true, nil
}

// CancelScheduledCycles cancels a recurrence's cycles not yet sent, as its
// end leaves them: by who ended it. The cancelled ones are returned.
func (t *Tx) CancelScheduledCycles(ctx context.Context, recurrenceID uuid.UUID, by string) ([]Cycle, error) {
	rows, _ := t.tx.Query(ctx, `WITH c AS (UPDATE recurrence_cycles SET status = 'CANCELLED', cancelled_by = nullif($2, ''), updated_at = now()
		WHERE recurrence_id = $1 AND status = 'SCHEDULED' RETURNING *) SELECT `+cycleColumns+` FROM c`, recurrenceID, by)
	return pgx.CollectRows(rows, scanCycle)
}

// ParkSchedule stops a recurrence's scheduling (it ended).
func (t *Tx) ParkSchedule(ctx context.Context, id uuid.UUID) error {
	_, err := t.tx.Exec(ctx, `UPDATE recurrences SET next_send_on = 'infinity' WHERE id = $1`, id)
	return err
}
