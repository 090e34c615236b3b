package storage_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// statement is a StatementSource over a slice.
type statement struct {
	lines            []storage.StatementLine
	i                int
	opening, closing *money.Money
}

func (s *statement) Next() bool                  { s.i++; return s.i <= len(s.lines) }
func (s *statement) Line() storage.StatementLine { return s.lines[s.i-1] }
func (s *statement) Err() error                  { return nil }
func (s *statement) Balances() (money.Money, money.Money, bool) {
	if s.opening == nil {
		return 0, 0, false
	}
	return *s.opening, *s.closing, true
}

// reconDay is yesterday in the providers' clock, and its noon.
func reconDay() (day string, start, end, noon time.Time) {
	loc := time.FixedZone("-03", -3*60*60)
	y, m, d := time.Now().In(loc).AddDate(0, 0, -1).Date()
	start = time.Date(y, m, d, 0, 0, 0, 0, loc)
	return start.Format(time.DateOnly), start, start.AddDate(0, 0, 1), start.Add(12 * time.Hour)
}

func reconSpec(graceUntil time.Time) storage.ReconSpec {
	day, start, end, _ := reconDay()
	return storage.ReconSpec{Provider: "default", Day: day, Start: start, End: end, GraceUntil: graceUntil,
		Boundary: 15 * time.Minute, Trigger: storage.TriggerOperator}
}

// chargeLine is the provider's line of a paid charge.
func chargeLine(c storage.Charge, amount money.Money, at time.Time) storage.StatementLine {
	return storage.StatementLine{Kind: "charge", Direction: 1, ProviderID: *c.PixID, Amount: amount, Status: "PAID", SettledAt: at}
}

// A day with one of each: a match, an amount changed, a record the
// statement lacks, a line PixGate never heard of, a line twice, a line of
// a charge PixGate has not seen paid, and a withdrawal matched by its
// end-to-end id. Each is reported once with its kind; the balance
// difference is all explained; a rerun finds the same items under the same
// ids; resolving them leaves the ledger's audit clean, and a rerun keeps
// the resolutions.
func TestReconciliationReportsEachDiscrepancyOnce(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	in := newIntegrator(t, db)
	_, _, _, noon := reconDay()
	r10, r20, r30, r40 := money.FromReais(10, 0), money.FromReais(20, 0), money.FromReais(30, 0), money.FromReais(40, 0)
	matched := payCharge(t, db, in, r10, noon)
	changed := payCharge(t, db, in, r20, noon.Add(time.Minute))
	payCharge(t, db, in, r30, noon.Add(2*time.Minute)) // the statement lacks it
	twice := payCharge(t, db, in, r40, noon.Add(3*time.Minute))
	unpaid := newCharge(t, db, in, r10)
	setPixID(t, db, unpaid.ID)
	unpaid = chargeByID(t, db, unpaid.ID)

	w := newWithdrawal(in.ID, money.FromReais(5, 0), 0, "")
	if _, _, err := db.CreateWithdrawal(ctx, w); err != nil {
		t.Fatal(err)
	}
	if err := db.InTx(ctx, func(tx *storage.Tx) error {
		_, _, err := tx.CompleteTransfer(ctx, storage.KindWithdrawal, w.ID, storage.Settlement{EndToEndID: "E99999999ZZZ", At: noon.Add(4 * time.Minute)})
		return err
	}); err != nil {
		t.Fatal(err)
	}

	lines := []storage.StatementLine{
		chargeLine(matched, r10, noon),
		chargeLine(changed, money.FromReais(21, 0), noon.Add(time.Minute)),
		chargeLine(twice, r40, noon.Add(3*time.Minute)),
		chargeLine(twice, r40, noon.Add(3*time.Minute)),
		{Kind: "charge", Direction: 1, ProviderID: "never-heard-of", EndToEndID: "E00000000UNKNOWN", Amount: money.FromReais(7, 0), Status: "PAID", SettledAt: noon.Add(5 * time.Minute)},
		chargeLine(unpaid, r10, noon.Add(6*time.Minute)),
		{Kind: "withdrawal", Direction: -1, ProviderID: "whatever", EndToEndID: "E99999999ZZZ", Amount: money.FromReais(5, 0), Status: "COMPLETED", SettledAt: noon.Add(4 * time.Minute)},
	}
	var net money.Money
	for _, l := range lines {
		net += l.Amount * money.Money(l.Direction)
	}
	opening := money.FromReais(1000, 0)
	closing := opening + net
	run := func() storage.ReconRun {
		t.Helper()
		r, err := db.RunReconciliation(ctx, reconSpec(time.Now().Add(-time.Hour)), &statement{lines: lines, opening: &opening, closing: &closing})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	first := run()
	want := map[storage.ReconKind]int64{storage.ReconMatched: 3, storage.ReconAmountMismatch: 1, storage.ReconMissingAtProvider: 1,
		storage.ReconMissingInPixGate: 1, storage.ReconDuplicate: 1, storage.ReconStatusMismatch: 1}
	for k, n := range want {
		if first.ByKind[k] != n {
			t.Errorf("%s: %d, want %d (all: %v)", k, first.ByKind[k], n, first.ByKind)
		}
	}
	if first.Lines != 7 || first.Records != 5 || first.Exceptions != 5 || first.OpenExceptions != 5 || first.Reconciled() {
		t.Errorf("run %+v", first)
	}
	// The statement's day moved 1 (changed) + 40 (twice) + 7 (unknown) + 10
	// (unpaid) more than PixGate's, and 30 (lacking) less: all explained.
	if first.DayDifference == nil || *first.DayDifference != money.FromReais(28, 0) || first.Explained != money.FromReais(28, 0) ||
		first.Unexplained == nil || *first.Unexplained != 0 {
		t.Errorf("figures: difference %v, explained %v, unexplained %v", first.DayDifference, first.Explained, first.Unexplained)
	}
	items := dayItems(t, db, first.Day)

	again := run()
	if again.ID == first.ID || again.Exceptions != first.Exceptions {
		t.Fatalf("rerun %+v", again)
	}
	for key, it := range dayItems(t, db, first.Day) {
		if items[key].ID != it.ID || it.RunID != again.ID {
			t.Errorf("%s: rerun item %s (run %d), was %s", key, it.ID, it.RunID, items[key].ID)
		}
	}

	// Resolve each: the money ones with an adjustment.
	for _, it := range items {
		if it.Status != storage.ReconOpen {
			continue
		}
		post := it.Kind != storage.ReconStatusMismatch
		got, err := db.ResolveReconciliationItem(ctx, it.ID, storage.ReconResolution{Operator: "ana", Reason: "checked with the provider", PostAdjustment: post})
		if err != nil || got.Status != storage.ReconResolved || (post && got.Adjusted != it.Delta) {
			t.Fatalf("resolve %s: %+v, %v", it.Kind, got, err)
		}
		if _, err := db.ResolveReconciliationItem(ctx, it.ID, storage.ReconResolution{Operator: "ana", Reason: "again"}); !errors.Is(err, storage.ErrReconNotOpen) {
			t.Fatalf("resolving twice: %v", err)
		}
	}
	if v, err := db.Audit(ctx); err != nil || len(v) != 0 {
		t.Fatalf("audit after the resolutions: %v, %v", v, err)
	}
	third := run()
	if third.OpenExceptions != 0 || !third.Reconciled() || *third.Unexplained != 0 {
		t.Fatalf("rerun after the resolutions: %+v", third)
	}
	for key, it := range dayItems(t, db, first.Day) {
		if it.Kind != storage.ReconMatched && it.Status != storage.ReconResolved {
			t.Errorf("%s: %s after the rerun", key, it.Status)
		}
	}
}

func dayItems(t *testing.T, db *storage.DB, day string) map[string]storage.ReconItem {
	t.Helper()
	out := map[string]storage.ReconItem{}
	if err := db.ReconciliationItems(context.Background(), "default", day, func(it storage.ReconItem) error {
		out[it.Key] = it
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// setPixID gives a pending charge its provider id, as its issuing does.
func setPixID(t *testing.T, db *storage.DB, id uuid.UUID) {
	t.Helper()
	if _, err := db.IssueCharge(context.Background(), id, storage.ChargeIssue{PixID: "pix-" + id.String(), QRCode: "qr",
		ExpiresAt: time.Now().Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
}

// Within the grace period, what time may still settle is expected, not an
// exception: a charge PixGate has not seen paid yet, a record settled a
// minute before midnight that the statement lacks. What time cannot fix
// is an exception at once. Once the grace period is over, the rerun
// reports them. A line of the next day's statement that names a record
// of this day is matched there, and this day no longer misses it.
func TestReconciliationExpectsWhatTimeMaySettle(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	in := newIntegrator(t, db)
	day, _, end, noon := reconDay()
	r10 := money.FromReais(10, 0)
	inFlight := newCharge(t, db, in, r10)
	setPixID(t, db, inFlight.ID)
	inFlight = chargeByID(t, db, inFlight.ID)
	late := payCharge(t, db, in, r10, end.Add(-time.Minute)) // the statement lacks it
	changed := payCharge(t, db, in, r10, noon)
	midnight := payCharge(t, db, in, r10, end.Add(-2*time.Minute))
	lines := func() *statement {
		return &statement{lines: []storage.StatementLine{
			chargeLine(inFlight, r10, noon),
			chargeLine(changed, money.FromReais(11, 0), noon),
		}}
	}
	within, err := db.RunReconciliation(ctx, reconSpec(time.Now().Add(time.Hour)), lines())
	if err != nil {
		t.Fatal(err)
	}
	if within.Expected != 3 || within.Exceptions != 1 || within.ByKind[storage.ReconAmountMismatch] != 1 {
		t.Fatalf("within the grace period: %+v", within.ByKind)
	}
	items := dayItems(t, db, day)
	if it := items["record:charge:"+late.ID.String()]; it.Kind != storage.ReconExpected || *it.ExpectedKind != string(storage.ReconMissingAtProvider) {
		t.Fatalf("the late charge: %+v", it)
	}

	// The next day's statement carries the midnight charge.
	next := reconSpec(time.Now().Add(-time.Hour))
	next.Day, next.Start, next.End = end.Format(time.DateOnly), end, end.AddDate(0, 0, 1)
	if r, err := db.RunReconciliation(ctx, next, &statement{lines: []storage.StatementLine{chargeLine(midnight, r10, end.Add(time.Second))}}); err != nil ||
		r.Matched != 1 || r.Exceptions != 0 {
		t.Fatalf("next day: %+v, %v", r, err)
	}

	after, err := db.RunReconciliation(ctx, reconSpec(time.Now().Add(-time.Minute)), lines())
	if err != nil {
		t.Fatal(err)
	}
	want := map[storage.ReconKind]int64{storage.ReconStatusMismatch: 1, storage.ReconMissingAtProvider: 1, storage.ReconAmountMismatch: 1}
	for k, n := range want {
		if after.ByKind[k] != n {
			t.Errorf("after the grace period, %s: %d, want %d (%v)", k, after.ByKind[k], n, after.ByKind)
		}
	}
	if after.Expected != 0 || after.Exceptions != 3 || after.Unexplained != nil {
		t.Errorf("after the grace period: %+v", after)
	}
	if it := dayItems(t, db, day)["record:charge:"+midnight.ID.String()]; it.Kind != storage.ReconMatched {
		t.Errorf("the midnight charge, matched by the next day's line: %+v", it)
	}
}

// Two lines that share an end-to-end id yet name two records by the
// provider's id, both with another amount, are two items: their keys
// never collide, whatever the provider's ids do.
func TestReconciliationKeysDoNotCollide(t *testing.T) {
	db := storagetest.NewDB(t)
	in := newIntegrator(t, db)
	_, _, _, noon := reconDay()
	a := payCharge(t, db, in, money.FromReais(10, 0), noon)
	b := payCharge(t, db, in, money.FromReais(20, 0), noon)
	la, lb := chargeLine(a, money.FromReais(11, 0), noon), chargeLine(b, money.FromReais(21, 0), noon)
	la.EndToEndID, lb.EndToEndID = "E-shared", "E-shared"
	r, err := db.RunReconciliation(context.Background(), reconSpec(time.Now().Add(-time.Hour)), &statement{lines: []storage.StatementLine{la, lb}})
	if err != nil {
		t.Fatal(err)
	}
	if r.ByKind[storage.ReconAmountMismatch] != 2 {
		t.Fatalf("%v, want two amount mismatches", r.ByKind)
	}
}
