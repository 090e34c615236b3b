package storage

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/money/due"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// ScheduleCycles writes, for an approved recurrence, every cycle whose
// send day has come by today (SCHEDULED, to be sent by the reconciler), and
// records the next cycle and its send day: one transaction under the
// recurrence's lock, so that ticks running at once write each cycle once
// (and the unique (recurrence_id, n) holds besides). A cycle whose window
// has closed by today is skipped, never charged: a late consent starts from
// the first cycle that can still be sent (recurrence.Calendar.
// FirstSchedulable). A recurrence with no cycle left is parked
// (next_send_on 'infinity') until it completes.
//
// A variable recurrence's cycles are written by the integrator, who sets
// each one's amount (SetCycleAmount): none is written here.
func (db *DB) ScheduleCycles(ctx context.Context, id uuid.UUID, today due.Date) (written []Cycle, err error) {
	err = db.InTx(ctx, func(t *Tx) error {
		var next *int
		rows, _ := t.tx.Query(ctx, `SELECT next_cycle, `+recurrenceColumns+` FROM recurrences WHERE id = $1 FOR UPDATE`, id)
		r, err := pgx.CollectExactlyOneRow(rows, func(row pgx.CollectableRow) (Recurrence, error) {
			return scanRecurrence(prefixed{row, &next})
		})
		if err != nil {
			return notFound(err)
		}
		if r.Status != recurrence.RecurrenceApproved {
			return nil
		}
		if r.Amount.Variable() { // its cycles are written by the integrator's amounts (SetCycleAmount)
			return t.parkSchedule(ctx, id, 0)
		}
		n, ok := 0, true
		if next != nil {
			n = *next
		} else if n, ok = r.Calendar.FirstSchedulable(today); !ok {
			return t.parkSchedule(ctx, id, 0)
		} else if r.FirstCharge != nil {
			n = max(n, 1) // cycle 0 is the first payment, paid with the consent
		}
		for {
			d, ok := r.Calendar.Due(n)
			if !ok {
				return t.parkSchedule(ctx, id, n)
			}
			send, err := recurrence.SendDay(d, today)
			if err != nil { // its window closed: never charged
				n++
				continue
			}
			if send.After(today) {
				_, err := t.tx.Exec(ctx, `UPDATE recurrences SET next_cycle = $2, next_send_on = $3::date WHERE id = $1`, id, n, send.String())
				return err
			}
			c, err := t.insertCycle(ctx, r, n, d, send)
			if err != nil {
				return err
			}
			written = append(written, c...)
			n++
		}
	})
	if err != nil {
		return nil, fmt.Errorf("storage: schedule cycles of %s: %w", id, err)
	}
	return written, nil
}

// parkSchedule records that the recurrence has no cycle to schedule now.
func (t *Tx) parkSchedule(ctx context.Context, id uuid.UUID, next int) error {
	_, err := t.tx.Exec(ctx, `UPDATE recurrences SET next_cycle = $2, next_send_on = 'infinity' WHERE id = $1`, id, next)
	return err
}

// insertCycle writes cycle n of r SCHEDULED; none when it exists already.
func (t *Tx) insertCycle(ctx context.Context, r Recurrence, n int, d, send due.Date) ([]Cycle, error) {
	id, err := uuid.NewV7()
	if err != nil {
		return nil, err
	}
	rows, _ := t.tx.Query(ctx, `WITH c AS (INSERT INTO recurrence_cycles (id, recurrence_id, n, due_date, amount, status, send_on)
			VALUES ($1, $2, $3, $4::date, $5, 'SCHEDULED', $6::date) ON CONFLICT (recurrence_id, n) DO NOTHING RETURNING *)
		SELECT `+cycleColumns+` FROM c`, id, r.ID, n, d.String(), r.Amount.Fixed, send.String())
	return pgx.CollectRows(rows, scanCycle)
}

// ErrCycleNotSettable: a cycle whose amount can no longer be set: already
// sent, or its window closed.
var ErrCycleNotSettable = errors.New("the cycle can no longer take an amount")

// SetCycleAmount sets the amount of cycle n of a variable recurrence,
// asked on today: the cycle is written SCHEDULED (to be sent on its send
// day, SendDay) or, still SCHEDULED, given the new amount. A cycle the
// calendar does not have is ErrNotFound; one already sent, whose window has
// closed, or the first payment's, is ErrCycleNotSettable. The recurrence's
// lock orders it with the scheduler and the sends.
func (db *DB) SetCycleAmount(ctx context.Context, r Recurrence, n int, amount money.Money, today due.Date) (Cycle, error) {
	var c []Cycle
	err := db.InTx(ctx, func(t *Tx) error {
		if _, err := t.tx.Exec(ctx, `SELECT FROM recurrences WHERE id = $1 FOR UPDATE`, r.ID); err != nil {
			return err
		}
		d, ok := r.Calendar.Due(n)
		if !ok {
			return ErrNotFound
		}
		send, err := recurrence.SendDay(d, today)
		if err != nil || (n == 0 && r.FirstCharge != nil) {
			return ErrCycleNotSettable
		}
		id, err := uuid.NewV7()
		if err != nil {
			return err
		}
		rows, _ := t.tx.Query(ctx, `WITH c AS (INSERT INTO recurrence_cycles (id, recurrence_id, n, due_date, amount, status, send_on)
				VALUES ($1, $2, $3, $4::date, $5, 'SCHEDULED', $6::date)
				ON CONFLICT (recurrence_id, n) DO UPDATE SET amount = EXCLUDED.amount, updated_at = now()
				WHERE recurrence_cycles.status = 'SCHEDULED' RETURNING *)
			SELECT `+cycleColumns+` FROM c`, id, r.ID, n, d.String(), amount, send.String())
		if c, err = pgx.CollectRows(rows, scanCycle); err == nil && len(c) == 0 {
			err = ErrCycleNotSettable
		}
		return err
	})
	if err != nil {
		return Cycle{}, fmt.Errorf("storage: set cycle %d of %s: %w", n, r.ID, err)
	}
	return c[0], nil
}

// CancelScheduledCycle cancels a cycle not yet sent, as its integrator
// asked; ErrCycleNotSettable once it was sent.
func (db *DB) CancelScheduledCycle(ctx context.Context, id uuid.UUID) (Cycle, error) {
	var c Cycle
	err := db.InTx(ctx, func(t *Tx) error {
		var changed bool
		var err error
		c, changed, err = t.MoveCycle(ctx, id, recurrence.CycleScheduled, CycleChange{To: recurrence.CycleCancelled,
			CancelledBy: string(recurrence.PartyIntegrator)})
		if err == nil && !changed {
			err = ErrCycleNotSettable
		}
		return err
	})
	return c, err
}
