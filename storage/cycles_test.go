package storage_test

import (
	"context"
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
