package storage_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// A withdrawal is near its deadline in the last fifth of its time to
// due_at, or its last 15 minutes when that is longer, never before its
// creation.
func TestDeadlineNearAt(t *testing.T) {
	created := time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		due, want time.Duration // after created
	}{
		{120 * time.Minute, 96 * time.Minute}, // a fifth: 24 min
		{60 * time.Minute, 45 * time.Minute},  // a fifth is 12 min: 15
		{75 * time.Minute, 60 * time.Minute},  // both 15 min
		{10 * time.Minute, 0},                 // shorter than 15 min: near at once
		{24 * time.Hour, 24*time.Hour - 288*time.Minute},
	} {
		got := storage.DeadlineNearAt(created, created.Add(tc.due))
		if want := created.Add(tc.want); !got.Equal(want) {
			t.Errorf("due after %s: near at %s, want %s", tc.due, got.Sub(created), tc.want)
		}
	}
	if got := storage.Lateness(storage.Transfer{}, created); got != 0 {
		t.Errorf("lateness without a due_at = %s", got)
	}
	due := created.Add(time.Hour)
	fin := created.Add(90 * time.Minute)
	if got := storage.Lateness(storage.Transfer{DueAt: &due, FinishedAt: &fin}, created.Add(5*time.Hour)); got != 30*time.Minute {
		t.Errorf("lateness of one finished 30 min late = %s", got)
	}
	if got := storage.Lateness(storage.Transfer{DueAt: &due}, created.Add(2*time.Hour)); got != time.Hour {
		t.Errorf("lateness of one in flight an hour past = %s", got)
	}
}

// The late query, the notices and the counts: a withdrawal past its
// due_at in flight, and one finished after it, are breaches; one finished
// in time, one not due yet and one without a deadline are not; each
// notice is written once, and none for a final withdrawal.
func TestPayoutDeadlineQueries(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	in, other := newIntegrator(t, db), newIntegrator(t, db)
	for _, i := range []int64{in.ID, other.ID} {
		if _, err := db.CreditWallet(ctx, i, money.FromReais(1000, 0), "seed"); err != nil {
			t.Fatal(err)
		}
	}
	now := time.Now()
	create := func(integrator int64, due *time.Time) storage.Transfer {
		t.Helper()
		nw := newWithdrawal(integrator, money.FromReais(10, 0), 0, "")
		nw.DueAt = due
		w, _, err := db.CreateWithdrawal(ctx, nw)
		if err != nil {
			t.Fatal(err)
		}
		return w
	}
	at := func(d time.Duration) *time.Time { x := now.Add(d); return &x }
	late := create(in.ID, at(-time.Hour))           // in flight, an hour past
	lateDone := create(in.ID, at(-30*time.Minute))  // completed below, after its due_at
	onTime := create(in.ID, at(time.Hour))          // completed below, in time
	near := create(in.ID, at(10*time.Minute))       // near at once, not due
	notYet := create(in.ID, at(3*time.Hour))        // not near
	noDeadline := create(in.ID, nil)                // none
	otherLate := create(other.ID, at(-2*time.Hour)) // another integrator's
	for _, id := range []uuid.UUID{lateDone.ID, onTime.ID} {
		if err := db.InTx(ctx, func(tx *storage.Tx) error {
			_, _, err := tx.CompleteTransfer(ctx, storage.KindWithdrawal, id, storage.Settlement{PixID: "p-" + id.String(), At: now})
			return err
		}); err != nil {
			t.Fatal(err)
		}
	}
	if got, _ := db.TransferByID(ctx, storage.KindWithdrawal, late.ID); got.DueAt == nil || !got.DueAt.Equal(late.DueAt.Truncate(time.Microsecond)) {
		t.Fatalf("due_at read back %v, want %v", got.DueAt, late.DueAt)
	}
	_ = noDeadline

	ids := func(ts []storage.Transfer) map[uuid.UUID]bool {
		m := map[uuid.UUID]bool{}
		for _, x := range ts {
			m[x.ID] = true
		}
		return m
	}
	breaches, err := db.LatePayouts(ctx, now.Add(time.Second), storage.LateFilter{IntegratorID: in.ID, Since: now.Add(-24 * time.Hour), Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(breaches); len(got) != 2 || !got[late.ID] || !got[lateDone.ID] {
		t.Fatalf("breaches %v; want the one in flight and the one completed late", got)
	}
	if breaches[0].ID != late.ID {
		t.Fatalf("the most overdue first: %v", breaches[0].ID)
	}
	all, err := db.LatePayouts(ctx, now.Add(time.Second), storage.LateFilter{Since: now.Add(-24 * time.Hour), Limit: 100})
	if err != nil || !ids(all)[otherLate.ID] || len(all) < 3 {
		t.Fatalf("every integrator's breaches: %d, %v", len(all), err)
	}
	if recent, _ := db.LatePayouts(ctx, now.Add(time.Second), storage.LateFilter{IntegratorID: in.ID, Since: now.Add(-45 * time.Minute), Limit: 100}); len(recent) != 1 {
		t.Fatalf("breaches due in the last 45 min: %d, want the one completed late", len(recent))
	}

	counts, err := db.PayoutDeadlineCounts(ctx, now.Add(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if c := counts[in.ID]; c.Near != 1 || c.Late != 1 {
		t.Fatalf("counts %+v; want one near, one late", c)
	}
	due, err := db.DueDeadlineNotices(ctx, now.Add(time.Second), 100)
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(due); !got[late.ID] || !got[near.ID] || !got[otherLate.ID] || got[notYet.ID] || got[lateDone.ID] {
		t.Fatalf("due notices %v", got)
	}
	var built int
	build := func(storage.Transfer) *storage.NewPostback { built++; return nil }
	if noted, err := db.NoteDeadline(ctx, near.ID, false, build); err != nil || !noted {
		t.Fatalf("near notice: %v, %v", noted, err)
	}
	if noted, _ := db.NoteDeadline(ctx, near.ID, false, build); noted {
		t.Fatal("the near notice written twice")
	}
	if noted, _ := db.NoteDeadline(ctx, lateDone.ID, true, build); noted {
		t.Fatal("a late notice for a completed withdrawal")
	}
	if noted, err := db.NoteDeadline(ctx, late.ID, true, build); err != nil || !noted {
		t.Fatalf("late notice: %v, %v", noted, err)
	}
	if built != 2 {
		t.Fatalf("built %d postbacks, want 2", built)
	}
	due, _ = db.DueDeadlineNotices(ctx, now.Add(time.Second), 100)
	if got := ids(due); got[late.ID] || got[near.ID] {
		t.Fatalf("notices owed after writing them: %v", got)
	}
}
