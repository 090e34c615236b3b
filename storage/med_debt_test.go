package storage_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// agreeOnWithdrawnMoney pays a charge of 100.00 (98.50 net), withdraws
// 68.50 of it and agrees an infraction disputing all 100.00: 30.00 is
// blocked, and the provider returns the whole 100.00.
func agreeOnWithdrawnMoney(t *testing.T, db *storage.DB, in storage.Integrator) (storage.Charge, *storage.Transfer) {
	t.Helper()
	c := payCharge(t, db, in, 10000, time.Now())
	if _, _, err := db.CreateWithdrawal(context.Background(), newWithdrawal(in.ID, 6800, 50, "w-"+uuid.NewString())); err != nil {
		t.Fatal(err)
	}
	inf, _ := openInfraction(t, db, c.ID, "inf-"+uuid.NewString(), 10000)
	if inf.Blocked != 3000 {
		t.Fatalf("blocked %s, want 30.00", inf.Blocked)
	}
	_, ret, _ := closeInfraction(t, db, inf.ID, storage.InfractionAgreed)
	if ret == nil {
		t.Fatal("no MED return")
	}
	return c, ret
}

func finishTransfer(t *testing.T, db *storage.DB, kind storage.TransferKind, id uuid.UUID, completed bool) {
	t.Helper()
	ctx := context.Background()
	if err := db.InTx(ctx, func(tx *storage.Tx) error {
		var err error
		if completed {
			_, _, err = tx.CompleteTransfer(ctx, kind, id, storage.Settlement{PixID: "ret-" + id.String(), At: time.Now()})
		} else {
			_, _, err = tx.FailTransfer(ctx, kind, id, storage.Failure{Reason: "not returned"})
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
}

// An agreed MED of 100.00 on a charge of which 70.00 already left: the
// provider returns 100.00 from PixGate's account, so the MED return moves
// 100.00 (the provider's float is not overstated) and the 70.00 the
// wallet could not cover is the integrator's debt, shown in its balance.
func TestMedShortfallIsTheIntegratorsDebt(t *testing.T) {
	db := storagetest.NewDB(t)
	in := newIntegrator(t, db)
	_, ret := agreeOnWithdrawnMoney(t, db, in)
	if ret.Amount != 10000 {
		t.Fatalf("MED return of %s, want 100.00: what the provider returns", ret.Amount)
	}
	wantWallet(t, db, in.ID, storage.Wallet{Reserved: 6850 + 10000, Debt: 7000})
	mustAuditClean(t, db)
	floats, err := db.FloatBalances(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	before := floats[storage.DefaultProvider]
	finishTransfer(t, db, storage.KindMedReturn, ret.ID, true)
	if floats, _ = db.FloatBalances(context.Background()); floats[storage.DefaultProvider]-before != -10000 {
		t.Fatalf("the provider's float moved %s, want -100.00: what left its account", floats[storage.DefaultProvider]-before)
	}
	wantWallet(t, db, in.ID, storage.Wallet{Reserved: 6850, Debt: 7000})
	mustAuditClean(t, db)
}

// A debt is recovered from the integrator's next cash-ins before anything
// of them is credited: all of a net smaller than the debt, then the rest
// of the debt and the remainder to available.
func TestDebtIsRecoveredFromTheNextCashIns(t *testing.T) {
	db := storagetest.NewDB(t)
	in := newIntegrator(t, db)
	_, ret := agreeOnWithdrawnMoney(t, db, in)
	finishTransfer(t, db, storage.KindMedReturn, ret.ID, true)

	c1 := payCharge(t, db, in, 5000, time.Now()) // 49.25 net
	if c1.Status != storage.ChargePaid {
		t.Fatalf("charge %s", c1.Status)
	}
	wantWallet(t, db, in.ID, storage.Wallet{Reserved: 6850, Debt: 7000 - 4925})
	payCharge(t, db, in, 5000, time.Now()) // 49.25 net: 20.75 to the debt, 28.50 to available
	wantWallet(t, db, in.ID, storage.Wallet{Available: 4925 - 2075, Reserved: 6850})
	if got := chargeByID(t, db, c1.ID); got.ReleasedAt == nil || got.HeldAmount != 0 {
		t.Fatalf("charge %+v", got)
	}
	mustAuditClean(t, db)
}

// Under a settlement hold the debt is taken from the net before it goes to
// pending: the charge holds only the rest, which its release moves; a
// charge whose whole net paid the debt holds nothing and is released.
func TestDebtIsRecoveredBeforeTheHold(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	in := heldIntegrator(t, db, time.Hour)
	c := payCharge(t, db, in, 10000, time.Now().Add(-2*time.Hour)) // 98.50 net, its hold over
	if _, err := db.ReleaseCharge(ctx, c.ID); err != nil {
		t.Fatal(err)
	}
	if _, _, err := db.CreateWithdrawal(ctx, newWithdrawal(in.ID, 6800, 50, "w1")); err != nil {
		t.Fatal(err)
	}
	inf, _ := openInfraction(t, db, c.ID, "inf-h", 10000)
	_, ret, _ := closeInfraction(t, db, inf.ID, storage.InfractionAgreed)
	finishTransfer(t, db, storage.KindMedReturn, ret.ID, true)
	wantWallet(t, db, in.ID, storage.Wallet{Reserved: 6850, Debt: 7000})

	small := payCharge(t, db, in, 2000, time.Now()) // 19.70 net, all of it to the debt
	if small.HeldAmount != 0 || small.ReleasedAt == nil {
		t.Fatalf("a charge whose whole net paid the debt holds %s, released %v", small.HeldAmount, small.ReleasedAt)
	}
	big := payCharge(t, db, in, 10000, time.Now().Add(-2*time.Hour)) // 98.50 net: 50.30 to the debt, 48.20 held
	if big.HeldAmount != 9850-(7000-1970) {
		t.Fatalf("charge holds %s, want 48.20", big.HeldAmount)
	}
	wantWallet(t, db, in.ID, storage.Wallet{Pending: 4820, Reserved: 6850})
	mustAuditClean(t, db)
	if released, err := db.ReleaseCharge(ctx, big.ID); err != nil || released != 4820 {
		t.Fatalf("released %s, %v; want 48.20", released, err)
	}
	wantWallet(t, db, in.ID, storage.Wallet{Available: 4820, Reserved: 6850})
	mustAuditClean(t, db)
}

// A MED return the provider reports failed voids the debt its shortfall
// booked: what is still owed of it goes back to the debt, what cash-ins
// recovered meanwhile comes back in available, with the blocked part.
func TestFailedMedReturnVoidsItsDebt(t *testing.T) {
	db := storagetest.NewDB(t)
	in := newIntegrator(t, db)
	_, ret := agreeOnWithdrawnMoney(t, db, in)
	payCharge(t, db, in, 2000, time.Now()) // 19.70 of the 70.00 recovered
	wantWallet(t, db, in.ID, storage.Wallet{Reserved: 6850 + 10000, Debt: 7000 - 1970})
	finishTransfer(t, db, storage.KindMedReturn, ret.ID, false)
	wantWallet(t, db, in.ID, storage.Wallet{Available: 3000 + 1970, Reserved: 6850})
	mustAuditClean(t, db)
}

// Cash-ins of an integrator in debt paid at once never recover more than
// it owes: the debt ends at zero, what they paid beyond it is available,
// and the ledger agrees.
func TestConcurrentCashInsRecoverADebtOnce(t *testing.T) {
	db := storagetest.NewDB(t)
	in := newIntegrator(t, db)
	_, ret := agreeOnWithdrawnMoney(t, db, in)
	finishTransfer(t, db, storage.KindMedReturn, ret.ID, true)
	const n = 20
	charges := make([]storage.Charge, n)
	for i := range charges {
		charges[i] = newCharge(t, db, in, 1000) // 9.85 net each, 197.00 in all
	}
	var wg sync.WaitGroup
	for _, c := range charges {
		wg.Go(func() { markPaid(t, db, c.ID, time.Now()) })
	}
	wg.Wait()
	wantWallet(t, db, in.ID, storage.Wallet{Available: n*985 - 7000, Reserved: 6850})
	var recovered money.Money
	for _, c := range charges {
		recovered += chargeByID(t, db, c.ID).DebtRecovered
	}
	if recovered != 7000 {
		t.Fatalf("charges recorded %s recovered, want 70.00", recovered)
	}
	mustAuditClean(t, db)
}

// Money that arrives while an infraction is open is the integrator's to
// spend; when the infraction is agreed, what the available balance then
// holds pays the shortfall before any of it is owed.
func TestMedReturnTakesWhatIsAvailableBeforeBookingADebt(t *testing.T) {
	db := storagetest.NewDB(t)
	in := newIntegrator(t, db)
	c := payCharge(t, db, in, 10000, time.Now()) // 98.50 net
	if _, _, err := db.CreateWithdrawal(context.Background(), newWithdrawal(in.ID, 6800, 50, "w1")); err != nil {
		t.Fatal(err)
	}
	inf, _ := openInfraction(t, db, c.ID, "inf-avail", 10000) // 30.00 blocked, 70.00 short
	payCharge(t, db, in, 5000, time.Now())                    // 49.25 net, available while it is open
	wantWallet(t, db, in.ID, storage.Wallet{Available: 4925, Reserved: 6850, Blocked: 3000})
	_, ret, _ := closeInfraction(t, db, inf.ID, storage.InfractionAgreed)
	if ret == nil || ret.Amount != 10000 {
		t.Fatalf("MED return %+v, want 100.00", ret)
	}
	wantWallet(t, db, in.ID, storage.Wallet{Reserved: 6850 + 10000, Debt: 7000 - 4925})
	mustAuditClean(t, db)
	finishTransfer(t, db, storage.KindMedReturn, ret.ID, false) // not returned after all: all of it back
	wantWallet(t, db, in.ID, storage.Wallet{Available: 3000 + 4925, Reserved: 6850})
	mustAuditClean(t, db)
}
