package storage_test

import (
	"context"
	"crypto/sha256"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

// heldIntegrator is an integrator with a 1.5% cash-in fee, a fixed R$ 0.50
// cash-out fee and the given settlement hold.
func heldIntegrator(t *testing.T, db *storage.DB, hold time.Duration) storage.Integrator {
	t.Helper()
	in, _, err := db.CreateIntegrator(context.Background(), storage.NewIntegrator{Name: "Loja", Email: uuid.NewString() + "@example.com",
		CashIn: money.Percent(15000), CashOut: money.Fixed(50), CashInHold: hold})
	if err != nil {
		t.Fatal(err)
	}
	return in
}

// payCharge creates a charge of amount and marks it paid at paidAt, as the
// worker does once the provider confirms the payment.
func payCharge(t *testing.T, db *storage.DB, in storage.Integrator, amount money.Money, paidAt time.Time) storage.Charge {
	t.Helper()
	return markPaid(t, db, newCharge(t, db, in, amount).ID, paidAt)
}

func newCharge(t *testing.T, db *storage.DB, in storage.Integrator, amount money.Money) storage.Charge {
	t.Helper()
	id, _ := uuid.NewV7()
	h := sha256.Sum256(id[:])
	c, _, err := db.CreateCharge(context.Background(), storage.NewCharge{ID: id, IntegratorID: in.ID, ExternalID: id.String(), Amount: amount,
		Fee: in.CashIn.Compute(amount), Payer: storage.Payer{Name: "F", Document: "52998224725"}, RequestHash: h[:]})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func markPaid(t *testing.T, db *storage.DB, id uuid.UUID, paidAt time.Time) (c storage.Charge) {
	t.Helper()
	ctx := context.Background()
	err := db.InTx(ctx, func(tx *storage.Tx) (err error) {
		c, _, err = tx.MarkChargePaid(ctx, id, storage.Settlement{PixID: "pix-" + id.String(), At: paidAt})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func wallet(t *testing.T, db *storage.DB, integrator int64) storage.Wallet {
	t.Helper()
	w, err := db.Wallet(context.Background(), integrator)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func chargeByID(t *testing.T, db *storage.DB, id uuid.UUID) storage.Charge {
	t.Helper()
	c, err := db.ChargeByID(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// releaseAll runs the release step once, as one worker's tick does.
func releaseAll(t *testing.T, db *storage.DB) money.Money {
	t.Helper()
	ctx := context.Background()
	ids, err := db.DueReleases(ctx, 1000)
	if err != nil {
		t.Error(err)
		return 0
	}
	var total money.Money
	for _, id := range ids {
		r, err := db.ReleaseCharge(ctx, id)
		if err != nil {
			t.Error(err)
		}
		total += r
	}
	return total
}
