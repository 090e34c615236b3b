package storage_test

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/ledger"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// paidCharge pays a R$ 100.00 charge (net 98.50) of a new integrator and
// credits its wallet with extra, for refund fees.
func paidCharge(t *testing.T, db *storage.DB, extra money.Money) (storage.Integrator, storage.Charge) {
	t.Helper()
	ctx := context.Background()
	in := newIntegrator(t, db)
	id, _ := uuid.NewV7()
	h := sha256.Sum256(id[:])
	c, _, err := db.CreateCharge(ctx, storage.NewCharge{ID: id, IntegratorID: in.ID, ExternalID: "c1", Amount: 10000, Fee: 150,
		Payer: storage.Payer{Name: "F", Document: "52998224725"}, RequestHash: h[:]})
	if err != nil {
		t.Fatal(err)
	}
	err = db.InTx(ctx, func(tx *storage.Tx) error {
		c, _, err = tx.MarkChargePaid(ctx, c.ID, storage.Settlement{PixID: "pix-" + id.String(), At: time.Now()})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if extra > 0 {
		if _, err := db.CreditWallet(ctx, in.ID, extra, "refund fees"); err != nil {
			t.Fatal(err)
		}
	}
	return in, c
}

var errTooMuch = errors.New("more than is left")

// newRefund refunds amount (fee 0.10) of c, judged as the payments layer
// does for the amount.
func newRefund(in storage.Integrator, c storage.Charge, amount money.Money, externalID string) storage.NewRefund {
	id, _ := uuid.NewV7()
	h := sha256.Sum256([]byte(fmt.Sprint(*c.PixID, amount, externalID)))
	nr := storage.NewRefund{ID: id, IntegratorID: in.ID, ChargePixID: *c.PixID, Amount: amount, Fee: 10, RequestHash: h[:],
		Outbox: []storage.OutboxMessage{{Type: "refund:send", ID: "refund:send:" + id.String(), Payload: []byte(`{}`)}},
		Check: func(c storage.Charge) error {
			if amount > c.Amount-c.RefundedAmount {
				return errTooMuch
			}
			return nil
		}}
	if externalID != "" {
		nr.ExternalID = &externalID
	}
	return nr
}

// Forty refunds of R$ 5.00 race for a R$ 100.00 charge: exactly twenty are
// accepted, the charge's refunded amount is its amount, each accepted one
// reserved amount + fee, and the audit is clean.
func TestConcurrentRefundsNeverExceedTheCharge(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	in, c := paidCharge(t, db, money.FromReais(10, 0))
	var accepted, refused atomic.Int64
	var wg sync.WaitGroup
	start := make(chan struct{})
	for range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			_, _, err := db.CreateRefund(ctx, newRefund(in, c, 500, ""))
			switch {
			case err == nil:
				accepted.Add(1)
			case errors.Is(err, errTooMuch):
				refused.Add(1)
			default:
				t.Errorf("CreateRefund: %v", err)
			}
		}()
	}
	close(start)
	wg.Wait()
	if accepted.Load() != 20 || refused.Load() != 20 {
		t.Fatalf("accepted %d, refused %d; want 20 and 20", accepted.Load(), refused.Load())
	}
	got, _ := db.ChargeByID(ctx, c.ID)
	if got.RefundedAmount != got.Amount || got.Status != storage.ChargePaid {
		t.Fatalf("charge refunded %s of %s, %s", got.RefundedAmount, got.Amount, got.Status)
	}
	if w, _ := db.Wallet(ctx, in.ID); w.Reserved != 20*510 || w.Available != 9850+1000-20*510 {
		t.Fatalf("wallet = %+v, want 20 × 5.10 reserved", w)
	}
	var outbox int
	_ = db.Pool().QueryRow(ctx, `SELECT count(*) FROM outbox WHERE task_type = 'refund:send'`).Scan(&outbox)
	if outbox != 20 {
		t.Fatalf("refund:send rows = %d, want one per accepted refund", outbox)
	}
	mustAuditClean(t, db)
}

// A refused refund leaves the wallet, the charge, the refunds and the outbox
// as they were.
func TestRefusedRefundChangesNothing(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	in, c := paidCharge(t, db, 0)
	other := newIntegrator(t, db)
	drained := newRefund(in, c, 9850, "") // the whole net: nothing left for a fee
	drained.Fee = 1
	tests := []struct {
		name string
		nr   storage.NewRefund
		want error
	}{
		{"refused by the rules", newRefund(in, c, 10001, ""), errTooMuch},
		{"amount + fee above the wallet", drained, ledger.ErrInsufficientFunds},
		{"another integrator's charge", newRefund(other, c, 100, ""), storage.ErrNotFound},
		{"no such charge", func() storage.NewRefund { nr := newRefund(in, c, 100, ""); nr.ChargePixID = "nope"; return nr }(), storage.ErrNotFound},
	}
	before, _ := db.Wallet(ctx, in.ID)
	for _, tt := range tests {
		if _, _, err := db.CreateRefund(ctx, tt.nr); !errors.Is(err, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, err, tt.want)
		}
	}
	var refunds, outbox int
	_ = db.Pool().QueryRow(ctx, `SELECT (SELECT count(*) FROM refunds), (SELECT count(*) FROM outbox)`).Scan(&refunds, &outbox)
	got, _ := db.ChargeByID(ctx, c.ID)
	if w, _ := db.Wallet(ctx, in.ID); w != before || got.RefundedAmount != 0 || refunds != 0 || outbox != 0 {
		t.Fatalf("wallet %+v (was %+v), refunded %s, %d refunds, %d outbox rows", w, before, got.RefundedAmount, refunds, outbox)
	}
	mustAuditClean(t, db)
}

// The same external_id and request is the same refund, even once that
// refund used the whole charge up; another request with it is a conflict.
func TestCreateRefundIsIdempotentOnExternalID(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	in, c := paidCharge(t, db, 200)
	first, created, err := db.CreateRefund(ctx, newRefund(in, c, 10000, "estorno-1"))
	if err != nil || !created || first.PostbackURL != nil || first.ChargeID != c.ID {
		t.Fatalf("first = %+v, %v, created %v", first, err, created)
	}
	again, created, err := db.CreateRefund(ctx, newRefund(in, c, 10000, "estorno-1"))
	if err != nil || created || again.ID != first.ID {
		t.Fatalf("replay = %v, %v, created %v; want the first refund", again.ID, err, created)
	}
	if _, _, err := db.CreateRefund(ctx, newRefund(in, c, 5000, "estorno-1")); !errors.Is(err, storage.ErrIdempotencyConflict) {
		t.Fatalf("different request = %v, want ErrIdempotencyConflict", err)
	}
	if w, _ := db.Wallet(ctx, in.ID); w.Reserved != 10010 {
		t.Fatalf("wallet = %+v, want one reservation of 100.10", w)
	}
	mustAuditClean(t, db)
}

// A refused refund ends its transaction: the charge is free for the next
// refund and no session is left idle in a transaction, whichever step
// refused it (the charge's lookup, the rules, the wallet, a replay).
func TestRefusedRefundLeavesNoTransactionOpen(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	in, c := paidCharge(t, db, 0)
	if _, _, err := db.CreateRefund(ctx, newRefund(in, c, 100, "r-1")); err != nil {
		t.Fatal(err)
	}
	missing := newRefund(in, c, 100, "")
	missing.ChargePixID = "nope"
	drained := newRefund(in, c, 9740, "")
	drained.Fee = 100
	for _, nr := range []storage.NewRefund{missing, newRefund(in, c, 10001, ""), drained, newRefund(in, c, 100, "r-1")} {
		_, _, _ = db.CreateRefund(ctx, nr)
		var open int
		if err := db.Pool().QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity
			WHERE datname = current_database() AND state LIKE 'idle in transaction%'`).Scan(&open); err != nil || open != 0 {
			t.Fatalf("after %+v: %d sessions idle in transaction (%v)", nr.Amount, open, err)
		}
	}
	if _, created, err := db.CreateRefund(ctx, newRefund(in, c, 100, "")); err != nil || !created {
		t.Fatalf("next refund: created %v, %v", created, err)
	}
	mustAuditClean(t, db)
}
