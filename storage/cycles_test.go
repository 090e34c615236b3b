package storage_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money/due"
	"github.com/pixgate/pixgate/storage/recurrence"
	"github.com/pixgate/pixgate/storage/storagetest"
)

func day(t *testing.T, s string) due.Date {
	t.Helper()
	d, err := due.ParseDate(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// A weekly recurrence's cycles are written on their send day, once however
// many ticks run; sent, a cycle gets its charge; paid, that charge's
// charge.paid posting credits the wallet once, whatever repeats.
func TestCyclesScheduledSentAndPaidOnce(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	in := heldIntegrator(t, db, 0)
	nr := newRecurrence(in, "semanal", 1)
	nr.Calendar = recurrence.Calendar{Periodicity: recurrence.Weekly, Start: day(t, "2026-12-10"), Count: 3}
	r, _, err := db.CreateRecurrence(ctx, nr)
	if err != nil {
		t.Fatal(err)
	}
	if r, err = db.IssueRecurrence(ctx, r.ID, storage.RecurrenceIssue{ProviderID: "rec-s"}); err != nil {
		t.Fatal(err)
	}
	if err := db.InTx(ctx, func(tx *storage.Tx) error {
		r, _, err = tx.MoveRecurrence(ctx, r.ID, recurrence.RecurrenceCreated, storage.RecurrenceChange{To: recurrence.RecurrenceApproved})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	schedule := func(today string) []storage.Cycle {
		t.Helper()
		c, err := db.ScheduleCycles(ctx, r.ID, day(t, today))
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	if c := schedule("2026-11-28"); len(c) != 0 {
		t.Fatalf("written before the window opened: %+v", c)
	}
	if due, _ := db.DueRecurrences(ctx, day(t, "2026-11-29"), 10); len(due) != 0 {
		t.Fatalf("due before its send day: %d", len(due))
	}
	first := schedule("2026-11-30")
	if len(first) != 1 || first[0].N != 0 || first[0].DueDate != day(t, "2026-12-10") || first[0].Status != recurrence.CycleScheduled || first[0].Amount != 3500 {
		t.Fatalf("first cycle: %+v", first)
	}
	if again := schedule("2026-11-30"); len(again) != 0 {
		t.Fatalf("written twice: %+v", again)
	}
	if rest := schedule("2026-12-20"); len(rest) != 1 || rest[0].N != 2 { // cycle 1's window (to 12-15) closed: skipped
		t.Fatalf("late ticks: %+v", rest)
	}
	toSend, err := db.CyclesToSend(ctx, day(t, "2026-12-20"), 10)
	if err != nil || len(toSend) != 2 {
		t.Fatalf("to send: %d %v", len(toSend), err)
	}
	c := first[0]
	var issued storage.Cycle
	if err := db.InTx(ctx, func(tx *storage.Tx) (err error) {
		issued, _, err = tx.IssueCycle(ctx, c, r, "cobr-0")
		return err
	}); err != nil || issued.Status != recurrence.CycleCreated || issued.ChargeID == nil || issued.Fee != 53 {
		t.Fatalf("issued %+v %v", issued, err)
	}
	pay := func() bool {
		var changed bool
		if err := db.InTx(ctx, func(tx *storage.Tx) error {
			if _, _, err := tx.MarkChargePaid(ctx, *issued.ChargeID, storage.Settlement{PixID: "cobr-0", EndToEndID: "E1", At: time.Now()}); err != nil {
				return err
			}
			var err error
			_, changed, err = tx.MoveCycle(ctx, issued.ID, recurrence.CycleCreated, storage.CycleChange{To: recurrence.CyclePaid, EndToEndID: "E1"})
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return changed
	}
	if !pay() || pay() {
		t.Fatal("a cycle is paid once")
	}
	w, err := db.Wallet(ctx, in.ID)
	if err != nil || w.Available != 3500-53 {
		t.Fatalf("wallet %+v %v", w, err)
	}
	cycles, err := db.CyclesOf(ctx, r.ID)
	if err != nil || len(cycles) != 2 || cycles[0].Status != recurrence.CyclePaid || cycles[0].Fee != 53 || *cycles[0].EndToEndID != "E1" {
		t.Fatalf("cycles %+v %v", cycles, err)
	}
}

// A variable recurrence's cycle is written by its amount, changed while
// still SCHEDULED, and refused once sent, past its window or beyond the
// calendar; the scheduler writes none of its own.
func TestVariableCycleAmounts(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	in := heldIntegrator(t, db, 0)
	nr := newRecurrence(in, "variavel", 1)
	nr.Amount = recurrence.Amount{Floor: 2000}
	nr.Calendar = recurrence.Calendar{Periodicity: recurrence.Weekly, Start: day(t, "2026-12-10"), Count: 3}
	r, _, err := db.CreateRecurrence(ctx, nr)
	if err != nil {
		t.Fatal(err)
	}
	today := day(t, "2026-11-28")
	c, err := db.SetCycleAmount(ctx, r, 1, 4250, today)
	if err != nil || c.Status != recurrence.CycleScheduled || c.Amount != 4250 || c.SendOn != day(t, "2026-12-07") {
		t.Fatalf("set %+v %v", c, err)
	}
	if c, err = db.SetCycleAmount(ctx, r, 1, 3000, today); err != nil || c.Amount != 3000 {
		t.Fatalf("changed %+v %v", c, err)
	}
	if _, err := db.SetCycleAmount(ctx, r, 3, 3000, today); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("beyond the calendar: %v", err)
	}
	if _, err := db.SetCycleAmount(ctx, r, 0, 3000, day(t, "2026-12-09")); !errors.Is(err, storage.ErrCycleNotSettable) {
		t.Fatalf("past its window: %v", err)
	}
	if err := db.InTx(ctx, func(tx *storage.Tx) error {
		_, _, err := tx.IssueCycle(ctx, c, r, "cobr-v1")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.SetCycleAmount(ctx, r, 1, 5000, today); !errors.Is(err, storage.ErrCycleNotSettable) {
		t.Fatalf("once sent: %v", err)
	}
	if err := db.InTx(ctx, func(tx *storage.Tx) error {
		_, _, err := tx.MoveRecurrence(ctx, r.ID, recurrence.RecurrenceCreated, storage.RecurrenceChange{To: recurrence.RecurrenceApproved})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if written, err := db.ScheduleCycles(ctx, r.ID, day(t, "2026-12-08")); err != nil || len(written) != 0 {
		t.Fatalf("the scheduler wrote %+v %v", written, err)
	}
}
