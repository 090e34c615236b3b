package storage

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

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
// A variable recurrence's cycles wait for their amount, which the
// integrator sets per cycle: none is written here.
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
		if r.Amount.Variable() {
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
