package storage_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/ledger"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// daySpec is the spec of the day n days from today in the providers'
// clock, its grace period over, and the day's noon.
func daySpec(n int) (storage.ReconSpec, time.Time) {
	_, start, _, _ := reconDay()
	start = start.AddDate(0, 0, n+1)
	return storage.ReconSpec{Provider: "default", Day: start.Format(time.DateOnly), Start: start, End: start.AddDate(0, 0, 1),
		GraceUntil: time.Now().Add(-time.Hour), Boundary: 15 * time.Minute, Trigger: storage.TriggerOperator}, start.Add(12 * time.Hour)
}

// reconcileDay runs spec's day on a statement of lines from opening, whose
// closing balance is opening plus what the lines did and extra (money that
// moved at the provider outside any line).
func reconcileDay(t *testing.T, db *storage.DB, spec storage.ReconSpec, opening, extra money.Money, lines ...storage.StatementLine) storage.ReconRun {
	t.Helper()
	closing := opening + extra
	for _, l := range lines {
		closing += l.Amount * money.Money(l.Direction)
	}
	r, err := db.RunReconciliation(context.Background(), spec, &statement{lines: lines, opening: &opening, closing: &closing})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// checkClean fails unless r reconciles with nothing unexplained and closes
// closing off what PixGate expects.
func checkClean(t *testing.T, what string, r storage.ReconRun, closing money.Money) {
	t.Helper()
	if !r.Reconciled() || r.Unexplained == nil || *r.Unexplained != 0 || r.ClosingDifference == nil || *r.ClosingDifference != closing {
		t.Errorf("%s: reconciled %v, day difference %v, unexplained %v, closing difference %v; want a clean day closing %s off",
			what, r.Reconciled(), r.DayDifference, r.Unexplained, r.ClosingDifference, closing)
	}
}

// The money a provider's account held before PixGate's first transaction
// is in every statement's opening balance and moved on none of its days.
// Booked with an operator's float adjustment (here in two parts, on a day
// after the first one whose opening held it), it is what PixGate expects
// the provider to hold from then on, and no day's movement: the day it is
// booked on, the days before and a day without any transaction all
// reconcile, run and run again.
func TestReconciliationOfMoneyHeldBeforePixGate(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	in := newIntegrator(t, db)
	before := money.FromReais(1_000_000, 0)
	r10, r20 := money.FromReais(10, 0), money.FromReais(20, 0)
	quiet, _ := daySpec(-2)
	first, noon1 := daySpec(-1)
	booked, _ := daySpec(0)
	c10 := payCharge(t, db, in, r10, noon1)
	c20 := payCharge(t, db, in, r20, booked.Start.Add(time.Second))
	runAll := func() (storage.ReconRun, storage.ReconRun, storage.ReconRun) {
		return reconcileDay(t, db, quiet, before, 0), reconcileDay(t, db, first, before, 0, chargeLine(c10, r10, noon1)),
			reconcileDay(t, db, booked, before+r10, 0, chargeLine(c20, r20, booked.Start.Add(time.Second)))
	}
	q, f, b := runAll()
	checkClean(t, "the quiet day, nothing booked", q, before)
	checkClean(t, "the first day, nothing booked", f, before)
	checkClean(t, "the day of the booking, before it", b, before)

	if _, err := db.AdjustFloat(ctx, storage.DefaultProvider, before-r10, "balance before PixGate", "OPS-17"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.AdjustFloat(ctx, storage.DefaultProvider, r10, "balance before PixGate, the rest", "OPS-17b"); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		q, f, b = runAll()
		// Before the booking the provider held it and PixGate did not expect it.
		checkClean(t, "the quiet day", q, before)
		checkClean(t, "the first day", f, before)
		checkClean(t, "the day of the booking", b, 0)
	}
	mustAuditClean(t, db)
}

// A tariff the provider charged outside its statement's lines leaves its
// day unexplained until an operator books it naming that day: posted on a
// later day (here with the balance held before PixGate, which names none),
// it counts in the movement of the day it names, so that day reconciles
// when run again, and the day it was posted on is not disturbed.
func TestReconciliationCountsAnAdjustmentOnTheDayItNames(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	in := newIntegrator(t, db)
	before, r100, tariff := money.FromReais(1_000_000, 0), money.FromReais(100, 0), -money.FromReais(12, 34)
	charged, noon := daySpec(-1)
	booked, _ := daySpec(0)
	c := payCharge(t, db, in, r100, noon)
	runAll := func() (storage.ReconRun, storage.ReconRun) {
		return reconcileDay(t, db, charged, before, tariff, chargeLine(c, r100, noon)), reconcileDay(t, db, booked, before+r100+tariff, 0)
	}
	if r, _ := runAll(); r.Reconciled() || r.Unexplained == nil || *r.Unexplained != tariff {
		t.Fatalf("the tariff's day: reconciled %v, unexplained %v, want %s", r.Reconciled(), r.Unexplained, tariff)
	}

	if _, err := db.AdjustFloatOn(ctx, storage.DefaultProvider, "not-a-day", tariff, "monthly tariff", "OPS-18"); !errors.Is(err, ledger.ErrInvalid) {
		t.Fatalf("an adjustment on no real day: %v, want ErrInvalid", err)
	}
	if _, err := db.AdjustFloat(ctx, storage.DefaultProvider, before, "balance before PixGate", "OPS-17"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.AdjustFloatOn(ctx, storage.DefaultProvider, charged.Day, tariff, "monthly tariff", "OPS-18"); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		r, b := runAll()
		// The tariff's day closed before the balance held before PixGate was booked.
		checkClean(t, "the tariff's day", r, before)
		checkClean(t, "the day of the bookings", b, 0)
	}
	mustAuditClean(t, db)
}
