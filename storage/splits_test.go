package storage_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/split"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// subAccountOf creates a sub-account of parent.
func subAccountOf(t *testing.T, db *storage.DB, parent int64) int64 {
	t.Helper()
	in, _, err := db.CreateIntegrator(context.Background(), storage.NewIntegrator{Name: "Vendedor", Email: uuid.NewString() + "@example.com",
		CashIn: money.Percent(0), CashOut: money.Fixed(0), ParentID: &parent})
	if err != nil {
		t.Fatal(err)
	}
	return in.ID
}

// paySplitCharge creates a charge of amount with split s and marks it paid.
func paySplitCharge(t *testing.T, db *storage.DB, in storage.Integrator, amount money.Money, s split.Split) storage.Charge {
	t.Helper()
	c := newCharge(t, db, in, amount)
	if _, err := db.Pool().Exec(context.Background(), `UPDATE charges SET split = $2 WHERE id = $1`, c.ID, s.Encode()); err != nil {
		t.Fatal(err)
	}
	return markPaid(t, db, c.ID, time.Now())
}

func auditClean(t *testing.T, db *storage.DB) {
	t.Helper()
	if v, err := db.Audit(context.Background()); err != nil || len(v) > 0 {
		t.Fatalf("audit: %v %v", v, err)
	}
}

// Under a settlement hold the recipients' parts are available at once and
// the integrator's own part is held; a refund takes each part back pro
// rata and the integrator's share from its pending first; a failed refund
// gives the recipients back what it took and the integrator its pending;
// the release moves only the integrator's part. The audit is clean at
// every step.
func TestSplitUnderHoldRefundedAndFailed(t *testing.T) {
	db := storagetest.NewDB(t)
	in := heldIntegrator(t, db, 24*time.Hour)
	a, b := subAccountOf(t, db, in.ID), subAccountOf(t, db, in.ID)
	// 100.00 at 1.5%: net 98.50; A 50% = 49.25, B 10.00, the integrator 39.25.
	c := paySplitCharge(t, db, in, 10000, split.Split{Base: split.Net, Recipients: []split.Share{{SubAccount: a, PPM: 500000}, {SubAccount: b, Amount: 1000}}})
	if c.HeldAmount != 3925 || c.ReleasedAt != nil {
		t.Fatalf("held %v, released %v", c.HeldAmount, c.ReleasedAt)
	}
	wantWallet(t, db, in.ID, storage.Wallet{Pending: 3925})
	wantWallet(t, db, a, storage.Wallet{Available: 4925})
	wantWallet(t, db, b, storage.Wallet{Available: 1000})
	auditClean(t, db)

	// 40.00 refunded (+0.50): A gives back 19.70, B 4.00, the integrator 16.80 from pending.
	f, err := refundCharge(t, db, c, 4000)
	if err != nil {
		t.Fatal(err)
	}
	wantWallet(t, db, in.ID, storage.Wallet{Pending: 3925 - 1680, Reserved: 4050})
	wantWallet(t, db, a, storage.Wallet{Available: 4925 - 1970})
	wantWallet(t, db, b, storage.Wallet{Available: 600})
	auditClean(t, db)

	failRefund(t, db, f)
	wantWallet(t, db, in.ID, storage.Wallet{Pending: 3925})
	wantWallet(t, db, a, storage.Wallet{Available: 4925})
	wantWallet(t, db, b, storage.Wallet{Available: 1000})
	auditClean(t, db)

	endHold(t, db, c)
	if r := releaseAll(t, db); r != 3925 {
		t.Fatalf("released %v, want 39.25", r)
	}
	wantWallet(t, db, in.ID, storage.Wallet{Available: 3925})
	auditClean(t, db)

	// The whole charge refunded in two: the parts taken back are exactly
	// what was credited; the integrator pays the rest, the cash-in fee
	// (which no refund gives back) and the refunds' fees included.
	if _, err := db.CreditWallet(context.Background(), in.ID, 500, "refund fees"); err != nil {
		t.Fatal(err)
	}
	for _, x := range []money.Money{3333, 6667} {
		if _, err := refundCharge(t, db, c, x); err != nil {
			t.Fatal(err)
		}
	}
	wantWallet(t, db, a, storage.Wallet{})
	wantWallet(t, db, b, storage.Wallet{})
	wantWallet(t, db, in.ID, storage.Wallet{Available: 3925 + 500 - (10000 + 100 - 4925 - 1000), Reserved: 10100})
	auditClean(t, db)
}

// A split that takes the whole net leaves the integrator nothing to hold:
// the charge is released at once; a sub-account cannot have sub-accounts.
func TestSplitOfTheWholeNetUnderHold(t *testing.T) {
	db := storagetest.NewDB(t)
	in := heldIntegrator(t, db, 24*time.Hour)
	a := subAccountOf(t, db, in.ID)
	c := paySplitCharge(t, db, in, 10001, split.Split{Base: split.Net, Recipients: []split.Share{{SubAccount: a, PPM: 1000000}}})
	if c.HeldAmount != 0 || c.ReleasedAt == nil {
		t.Fatalf("held %v, released %v", c.HeldAmount, c.ReleasedAt)
	}
	wantWallet(t, db, a, storage.Wallet{Available: 10001 - 150})
	wantWallet(t, db, in.ID, storage.Wallet{})
	auditClean(t, db)
	if _, _, err := db.CreateIntegrator(context.Background(), storage.NewIntegrator{Name: "Neto", Email: "neto@example.com",
		ParentID: &a}); err != storage.ErrNotAParent {
		t.Fatalf("a sub-account of a sub-account: %v", err)
	}
}

// An agreed MED on a split charge takes each recipient's part back as far
// as its available balance goes (one of them has moved part of its money
// to a withdrawal); the integrator pays the rest from its blocked money
// and, beyond it, as its debt. The MED return failing gives each recipient
// back what it took and voids the debt.
func TestSplitReturnedUnderMedThenFailed(t *testing.T) {
	db := storagetest.NewDB(t)
	in := heldIntegrator(t, db, 0)
	a, b := subAccountOf(t, db, in.ID), subAccountOf(t, db, in.ID)
	// 100.00 at 1.5%: net 98.50; A 40% = 39.40, B 20.00, the integrator 39.10.
	c := paySplitCharge(t, db, in, 10000, split.Split{Base: split.Net, Recipients: []split.Share{{SubAccount: a, PPM: 400000}, {SubAccount: b, Amount: 2000}}})
	if _, _, err := db.CreateWithdrawal(context.Background(), newWithdrawal(a, 3000, 0, "w-"+uuid.NewString())); err != nil {
		t.Fatal(err)
	}
	inf, _ := openInfraction(t, db, c.ID, "inf-"+uuid.NewString(), 10000)
	if inf.Blocked != 3910 {
		t.Fatalf("blocked %s, want the integrator's 39.10", inf.Blocked)
	}
	auditClean(t, db)
	_, ret, _ := closeInfraction(t, db, inf.ID, storage.InfractionAgreed)
	if ret == nil || ret.Amount != 10000 {
		t.Fatalf("MED return %+v", ret)
	}
	// A gives back its 9.40 left, B its 20.00; the integrator 39.10 blocked + 29.40 + a debt of 31.50.
	wantWallet(t, db, a, storage.Wallet{Reserved: 3000})
	wantWallet(t, db, b, storage.Wallet{})
	wantWallet(t, db, in.ID, storage.Wallet{Reserved: 10000, Debt: 3150})
	auditClean(t, db)

	finishTransfer(t, db, storage.KindMedReturn, ret.ID, false)
	wantWallet(t, db, a, storage.Wallet{Available: 940, Reserved: 3000})
	wantWallet(t, db, b, storage.Wallet{Available: 2000})
	wantWallet(t, db, in.ID, storage.Wallet{Available: 3910})
	auditClean(t, db)
}
