package storage

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/money/due"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// Cycle is one cycle of a Pix Automático recurrence: a due date, an
// amount, and the charge (charge_id) that carries its payment into the
// ledger once sent (docs/recurrences.md).
type Cycle struct {
	ID           uuid.UUID
	RecurrenceID uuid.UUID
	N            int
	DueDate      due.Date
	Amount       money.Money
	Status       recurrence.CycleStatus
	ChargeID     *uuid.UUID
	// ProviderID is the cycle's charge at the provider, once sent.
	ProviderID *string
	// SendOn is the day its charge is sent to the provider.
	SendOn        due.Date
	Retries       int
	RejectionCode *string
	CancelledBy   *string
	FailureReason *string
	EndToEndID    *string
	CreatedAt     time.Time
	UpdatedAt     time.Time
	PaidAt        *time.Time
	// Fee is its charge's fee, once sent (0 before).
	Fee money.Money
	// Attempts are read with it where the caller asks (CycleAttempts).
	Attempts []CycleAttempt
}

// CycleAttempt is one try at settling a cycle's charge, as the provider
// reported it.
type CycleAttempt struct {
	ID            uuid.UUID
	CycleID       uuid.UUID
	Seq           int
	Kind          recurrence.AttemptKind
	SettleOn      due.Date
	Status        recurrence.AttemptStatus
	EndToEndID    *string
	RejectionCode *string
	CreatedAt     time.Time
	UpdatedAt     time.Time
}

const cycleColumns = `c.id, c.recurrence_id, c.n, c.due_date, c.amount, c.status, c.charge_id, c.provider_id, c.send_on, c.retries,
	c.rejection_code, c.cancelled_by, c.failure_reason, c.end_to_end_id, c.created_at, c.updated_at, c.paid_at,
	coalesce((SELECT ch.fee FROM charges ch WHERE ch.id = c.charge_id), 0)`

func scanCycle(row pgx.CollectableRow) (Cycle, error) {
	var c Cycle
	var dueDate, sendOn time.Time
	err := row.Scan(&c.ID, &c.RecurrenceID, &c.N, &dueDate, &c.Amount, &c.Status, &c.ChargeID, &c.ProviderID, &sendOn, &c.Retries,
		&c.RejectionCode, &c.CancelledBy, &c.FailureReason, &c.EndToEndID, &c.CreatedAt, &c.UpdatedAt, &c.PaidAt, &c.Fee)
	c.DueDate, c.SendOn = due.DateOf(dueDate), due.DateOf(sendOn)
	return c, err
}

const attemptColumns = `id, cycle_id, seq, kind, settle_on, status, end_to_end_id, rejection_code, created_at, updated_at`

func scanAttempt(row pgx.CollectableRow) (CycleAttempt, error) {
	var a CycleAttempt
	var settle time.Time
	err := row.Scan(&a.ID, &a.CycleID, &a.Seq, &a.Kind, &settle, &a.Status, &a.EndToEndID, &a.RejectionCode, &a.CreatedAt, &a.UpdatedAt)
	a.SettleOn = due.DateOf(settle)
	return a, err
}

// CyclesOf are a recurrence's cycles, oldest first, with their attempts.
func (db *DB) CyclesOf(ctx context.Context, recurrenceID uuid.UUID) ([]Cycle, error) {
	rows, _ := db.pool.Query(ctx, `SELECT `+cycleColumns+` FROM recurrence_cycles c WHERE c.recurrence_id = $1 ORDER BY c.n`, recurrenceID)
	cycles, err := pgx.CollectRows(rows, scanCycle)
	if err != nil {
		return nil, fmt.Errorf("storage: cycles of %s: %w", recurrenceID, err)
	}
	rows, _ = db.pool.Query(ctx, `SELECT `+prefixAttempt+` FROM recurrence_attempts a
		JOIN recurrence_cycles c ON c.id = a.cycle_id WHERE c.recurrence_id = $1 ORDER BY a.cycle_id, a.seq`, recurrenceID)
	attempts, err := pgx.CollectRows(rows, scanAttempt)
	if err != nil {
		return nil, fmt.Errorf("storage: attempts of %s: %w", recurrenceID, err)
	}
	byCycle := map[uuid.UUID][]CycleAttempt{}
	for _, a := range attempts {
		byCycle[a.CycleID] = append(byCycle[a.CycleID], a)
	}
	for i := range cycles {
		cycles[i].Attempts = byCycle[cycles[i].ID]
	}
	return cycles, nil
}

// CycleByID reads a cycle (without its attempts).
func (db *DB) CycleByID(ctx context.Context, id uuid.UUID) (Cycle, error) {
	rows, _ := db.pool.Query(ctx, `SELECT `+cycleColumns+` FROM recurrence_cycles c WHERE c.id = $1`, id)
	c, err := pgx.CollectExactlyOneRow(rows, scanCycle)
	return c, notFound(err)
}

// CycleByProviderID reads the cycle a provider's id names, among the
// cycles of the recurrences provider holds.
func (db *DB) CycleByProviderID(ctx context.Context, provider, providerID string) (Cycle, error) {
	rows, _ := db.pool.Query(ctx, `SELECT `+cycleColumns+` FROM recurrence_cycles c JOIN recurrences r ON r.id = c.recurrence_id
		WHERE c.provider_id = $2 AND r.provider = $1`, provider, providerID)
	c, err := pgx.CollectExactlyOneRow(rows, scanCycle)
	return c, notFound(err)
}

// CyclesToSend are the cycles whose send day has come (today or before),
// the earliest first.
func (db *DB) CyclesToSend(ctx context.Context, today due.Date, limit int) ([]Cycle, error) {
	rows, _ := db.pool.Query(ctx, `SELECT `+cycleColumns+` FROM recurrence_cycles c
		WHERE c.status = 'SCHEDULED' AND c.send_on <= $1::date ORDER BY c.send_on, c.updated_at LIMIT $2`, today.String(), limit)
	return pgx.CollectRows(rows, scanCycle)
}

// OpenCycles are the sent cycles still waiting for their outcome that no
// news moved for olderThan, the longest first: the reconciler reads them
// at their provider, so that a lost notification loses no payment.
func (db *DB) OpenCycles(ctx context.Context, olderThan time.Duration, limit int) ([]Cycle, error) {
	rows, _ := db.pool.Query(ctx, `SELECT `+cycleColumns+` FROM recurrence_cycles c
		WHERE c.status IN ('CREATED', 'ACTIVE') AND c.updated_at < now() - $1::interval ORDER BY c.updated_at LIMIT $2`, olderThan, limit)
	return pgx.CollectRows(rows, scanCycle)
}

// TouchCycle moves a cycle to the back of its queue (to send, or open).
func (db *DB) TouchCycle(ctx context.Context, id uuid.UUID) error {
	_, err := db.pool.Exec(ctx, `UPDATE recurrence_cycles SET updated_at = now() WHERE id = $1`, id)
	return err
}

// DueRecurrences are the approved recurrences whose next cycle's send day
// has come by today (or not yet computed): the scheduler's work.
func (db *DB) DueRecurrences(ctx context.Context, today due.Date, limit int) ([]Recurrence, error) {
	rows, _ := db.pool.Query(ctx, `SELECT `+recurrenceColumns+` FROM recurrences
		WHERE status = 'APPROVED' AND (next_send_on IS NULL OR next_send_on <= $1::date) ORDER BY next_send_on NULLS FIRST LIMIT $2`,
		today.String(), limit)
	return pgx.CollectRows(rows, scanRecurrence)
}

const prefixAttempt = `a.id, a.cycle_id, a.seq, a.kind, a.settle_on, a.status, a.end_to_end_id, a.rejection_code, a.created_at, a.updated_at`
