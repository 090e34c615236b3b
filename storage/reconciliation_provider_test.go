package storage_test

import (
	"context"
	"testing"
	"time"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// Each provider's day is matched with what went through that provider
// alone: another provider's charge is not missing from this one's
// statement, and a line naming another provider's charge is not taken
// for it.
func TestReconciliationKeepsProvidersApart(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	in := newIntegrator(t, db)
	day, _, _, noon := reconDay()
	r10 := money.FromReais(10, 0)
	ours := payCharge(t, db, in, r10, noon)
	theirs := payCharge(t, db, in, r10, noon.Add(time.Minute))
	if _, err := db.Pool().Exec(ctx, `UPDATE charges SET provider = 'other' WHERE id = $1`, theirs.ID); err != nil {
		t.Fatal(err)
	}
	spec := reconSpec(time.Now().Add(-time.Hour))
	def, err := db.RunReconciliation(ctx, spec, &statement{lines: []storage.StatementLine{chargeLine(ours, r10, noon)}})
	if err != nil || !def.Reconciled() || def.Records != 1 || def.Matched != 1 {
		t.Fatalf("the default provider's day: %+v, %v", def, err)
	}
	spec.Provider = "other"
	other, err := db.RunReconciliation(ctx, spec, &statement{lines: []storage.StatementLine{chargeLine(ours, r10, noon)}})
	if err != nil || other.Records != 1 || other.Matched != 0 ||
		other.ByKind[storage.ReconMissingInPixGate] != 1 || other.ByKind[storage.ReconMissingAtProvider] != 1 {
		t.Fatalf("the other provider's day: %+v, %v", other, err)
	}
	if items := dayItems(t, db, day); len(items) != 0 {
		t.Fatalf("the default provider's items: %v", items)
	}
}

// Each provider's day is weighed against its own float account: two
// providers, each holding exactly what PixGate booked through it, both
// close with no difference, whatever the other holds.
func TestReconciliationWeighsEachProviderAgainstItsFloat(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	in := newIntegrator(t, db)
	_, _, _, noon := reconDay()
	r10, r20 := money.FromReais(10, 0), money.FromReais(20, 0)
	ours := payCharge(t, db, in, r10, noon)
	if _, err := db.AddProvider(ctx, storage.Provider{Name: "other", Kind: "family", URL: "http://127.0.0.1:9"}); err != nil {
		t.Fatal(err)
	}
	theirs := newCharge(t, db, in, r20)
	if _, err := db.Pool().Exec(ctx, `UPDATE charges SET provider = 'other' WHERE id = $1`, theirs.ID); err != nil {
		t.Fatal(err)
	}
	theirs = markPaid(t, db, theirs.ID, noon)
	zero, r7 := money.Money(0), money.FromReais(7, 0)
	unknown := storage.StatementLine{Kind: "charge", Direction: 1, ProviderID: "unknown", EndToEndID: "E-unknown", Amount: r7,
		Status: "PAID", SettledAt: noon}
	run := func(provider string, closing money.Money, lines ...storage.StatementLine) storage.ReconRun {
		t.Helper()
		spec := reconSpec(time.Now().Add(-time.Hour))
		spec.Provider = provider
		r, err := db.RunReconciliation(ctx, spec, &statement{lines: lines, opening: &zero, closing: &closing})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	check := func(r storage.ReconRun, float money.Money) {
		t.Helper()
		if !r.Reconciled() || r.ClosingDifference == nil || *r.ClosingDifference != 0 || *r.FloatAtClose != float {
			t.Errorf("%s: reconciled %v, float at close %v, closing difference %v; want %s and none", r.Provider, r.Reconciled(),
				r.FloatAtClose, r.ClosingDifference, float)
		}
	}
	check(run("default", r10, chargeLine(ours, r10, noon)), r10)
	check(run("other", r20, chargeLine(theirs, r20, noon)), r20)

	// A PIX only the other provider received, resolved with its
	// adjustment, moves that provider's float alone.
	r := run("other", r20+r7, chargeLine(theirs, r20, noon), unknown)
	if r.Reconciled() || r.OpenExceptions != 1 {
		t.Fatalf("other, with a PIX PixGate never heard of: %+v", r)
	}
	if err := db.ReconciliationItems(ctx, "other", r.Day, func(it storage.ReconItem) error {
		_, err := db.ResolveReconciliationItem(ctx, it.ID, storage.ReconResolution{Operator: "ana", Reason: "ours", PostAdjustment: true})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	check(run("other", r20+r7, chargeLine(theirs, r20, noon), unknown), r20+r7)
	check(run("default", r10, chargeLine(ours, r10, noon)), r10)
	if v, err := db.Audit(ctx); err != nil || len(v) != 0 {
		t.Fatalf("audit: %v, %v", v, err)
	}
}
