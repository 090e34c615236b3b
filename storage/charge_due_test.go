package storage_test

import (
	"context"
	"crypto/sha256"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/money/due"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// A due-date charge keeps its terms and its fee rule; paid, its amount
// becomes what was paid on the day and its fee the rule's fee on that,
// and the wallet (held or not) gets exactly the net of what was paid.
func TestDueChargePaidSettlesWhatWasPaid(t *testing.T) {
	for _, hold := range []time.Duration{0, time.Hour} {
		db := storagetest.NewDB(t)
		ctx := context.Background()
		in := heldIntegrator(t, db, hold)
		date, _ := due.ParseDate("2026-12-10")
		terms := due.Terms{Original: 10000, Date: date, DaysAfter: 30, Fine: &due.Fine{Mode: due.FinePercent, Value: 200}}
		id, _ := uuid.NewV7()
		h := sha256.Sum256(id[:])
		c, _, err := db.CreateCharge(ctx, storage.NewCharge{ID: id, IntegratorID: in.ID, ExternalID: id.String(), Amount: 10000,
			Fee: in.CashIn.Compute(10000), Payer: storage.Payer{Name: "F", Document: "52998224725"}, RequestHash: h[:],
			Due: &storage.ChargeDue{Terms: terms, Fee: in.CashIn}})
		if err != nil {
			t.Fatal(err)
		}
		if c.Due == nil || c.Due.Terms.Original != 10000 || c.Due.Terms.Fine == nil || c.Due.Terms.Fine.Value != 200 || c.Due.Fee != in.CashIn {
			t.Fatalf("due read back as %+v", c.Due)
		}
		paid := money.Money(10250)
		var got storage.Charge
		err = db.InTx(ctx, func(tx *storage.Tx) (err error) {
			got, _, err = tx.MarkChargePaid(ctx, id, storage.Settlement{PixID: "pix-" + id.String(), At: time.Now(),
				Amount: paid, Fee: in.CashIn.Compute(paid)})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		fee := in.CashIn.Compute(paid) // 1.5% of 102.50 = 1.5375 → 1.54
		if got.Amount != paid || got.Fee != fee || fee != 154 {
			t.Fatalf("paid charge: amount %s fee %s, want %s and %s", got.Amount, got.Fee, paid, fee)
		}
		w := wallet(t, db, in.ID)
		if hold > 0 && (got.HeldAmount != paid-fee || w.Pending != paid-fee) {
			t.Errorf("held %s, pending %s; want %s", got.HeldAmount, w.Pending, paid-fee)
		}
		if hold == 0 && w.Available != paid-fee {
			t.Errorf("available %s, want %s", w.Available, paid-fee)
		}
		if v, err := db.Audit(ctx); err != nil || len(v) > 0 {
			t.Errorf("audit: %v %v", v, err)
		}
	}
}
