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
