package storage_test

import (
	"context"
	"crypto/sha256"
	"strconv"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// The operators' figures on a fresh database are zero and empty; a charge
// paid three seconds before it was credited shows in its provider's credit
// lags; postbacks count per integrator by state, a failed attempt making a
// pending one retrying.
func TestOpsGauges(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	in := newIntegrator(t, db)
	addProvider(t, db, "a")
	since := time.Now().Add(-time.Minute)

	med, err := db.MEDExposure(ctx)
	if err != nil || med.Blocked != 0 || med.Debt != 0 || med.Debtors != 0 || len(med.Open) != 0 {
		t.Fatalf("MED on a fresh database: %+v, %v", med, err)
	}
	if old, err := db.OldestOpenReconExceptions(ctx); err != nil || len(old) != 0 {
		t.Fatalf("open exceptions on a fresh database: %v, %v", old, err)
	}
	if closes, err := db.LastReconCloses(ctx); err != nil || len(closes) != 0 {
		t.Fatalf("reconciliation closes on a fresh database: %v, %v", closes, err)
	}

	id, _ := uuid.NewV7()
	h := sha256.Sum256(id[:])
	c, _, err := db.CreateCharge(ctx, storage.NewCharge{ID: id, IntegratorID: in.ID, ExternalID: "c1", Amount: 10000, Fee: 150,
		Payer: storage.Payer{Name: "F", Document: "52998224725"}, RequestHash: h[:], Provider: "a"})
	if err != nil {
		t.Fatal(err)
	}
	err = db.InTx(ctx, func(tx *storage.Tx) error {
		_, _, err := tx.MarkChargePaid(ctx, c.ID, storage.Settlement{PixID: "pix-" + id.String(), At: time.Now().Add(-3 * time.Second)})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	lags, err := db.CreditLags(ctx, since)
	if err != nil {
		t.Fatal(err)
	}
	if l := lags["a"]; l.Count != 1 || l.P50 < 2.5 || l.P50 > 30 || l.P99 < l.P50 || len(lags) != 1 {
		t.Fatalf("credit lags: %+v", lags)
	}
	if w, err := db.WithdrawalPostbackLags(ctx, since); err != nil || len(w) != 0 {
		t.Fatalf("withdrawal postback lags with none delivered: %v, %v", w, err)
	}

	delivered, retrying := createPostback(t, db, in.ID, "PAID"), createPostback(t, db, in.ID, "EXPIRED")
	createPostback(t, db, in.ID, "REFUNDED")
	if _, err := db.RecordPostbackAttempt(ctx, delivered.ID, storage.PostbackAttemptResult{Outcome: storage.OutcomeDelivered, StatusCode: 200}); err != nil {
		t.Fatal(err)
	}
	next := time.Now().Add(time.Minute)
	if _, err := db.RecordPostbackAttempt(ctx, retrying.ID, storage.PostbackAttemptResult{Outcome: storage.OutcomeRetry, StatusCode: 500, NextAttemptAt: &next}); err != nil {
		t.Fatal(err)
	}
	recent, err := db.RecentPostbacks(ctx, since)
	if err != nil {
		t.Fatal(err)
	}
	got := recent[strconv.FormatInt(in.ID, 10)]
	if len(recent) != 1 || got["delivered"] != 1 || got["retrying"] != 1 || got["waiting"] != 1 || len(got) != 3 {
		t.Fatalf("recent postbacks: %v", recent)
	}
	if later, err := db.RecentPostbacks(ctx, time.Now().Add(time.Minute)); err != nil || len(later) != 0 {
		t.Fatalf("postbacks written after now: %v, %v", later, err)
	}
}
