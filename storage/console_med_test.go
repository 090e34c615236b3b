package storage_test

import (
	"context"
	"testing"
	"time"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// The console's MED reads, across integrators: an integrator's open
// infraction is listed with its name, blocked amount and shortfall; one
// agreed (closed) is not, and the debt its return left is listed with its
// integrator; an integrator that owes nothing is not.
func TestConsoleMEDReads(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	open, owing, clean := newIntegrator(t, db), newIntegrator(t, db), newIntegrator(t, db)
	_ = payCharge(t, db, clean, 5000, time.Now())

	c := payCharge(t, db, open, 10000, time.Now())
	inf, _ := openInfraction(t, db, c.ID, "inf-open", 12000)
	_, _ = agreeOnWithdrawnMoney(t, db, owing)

	list, err := db.OpenInfractions(ctx, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].ID != inf.ID || list[0].Integrator != "Acme" || list[0].IntegratorID != open.ID {
		t.Fatalf("open infractions = %+v, want only %s of integrator %d", list, inf.ID, open.ID)
	}
	if got := list[0]; got.Blocked != 9850 || got.Shortfall() != 2150 || c.PixID == nil || got.ChargePixID != *c.PixID || got.DueAt == nil {
		t.Fatalf("open infraction: blocked %s shortfall %s pix %q due %v; want 98.50, 21.50, %v, a due day",
			got.Blocked, got.Shortfall(), got.ChargePixID, got.DueAt, c.PixID)
	}

	debts, err := db.IntegratorDebts(ctx, 10)
	if err != nil {
		t.Fatal(err)
	}
	if want := (storage.IntegratorDebt{IntegratorID: owing.ID, Integrator: "Acme", Debt: 7000}); len(debts) != 1 || debts[0] != want {
		t.Fatalf("debts = %+v, want only %+v", debts, want)
	}
	if list, err := db.OpenInfractions(ctx, 0); err != nil || len(list) != 0 {
		t.Fatalf("limit 0: %v %v", list, err)
	}
}
