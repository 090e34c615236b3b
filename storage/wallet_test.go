package storage_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/ledger"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// TestDebitThatWouldOverdrawIsRefusedAndChangesNothing: a debit is taken
// from available alone; one larger than available is refused whole, even
// when pending money would cover it.
func TestDebitThatWouldOverdrawIsRefusedAndChangesNothing(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	in := heldIntegrator(t, db, time.Hour)
	payCharge(t, db, in, 10000, time.Now())
	if _, err := db.CreditWallet(ctx, in.ID, 1000, "mistaken credit"); err != nil {
		t.Fatal(err)
	}
	count := func() (n int) {
		if err := db.Pool().QueryRow(ctx, `SELECT count(*) FROM ledger_transactions`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	beforeWallet, beforeAdj, beforeTx := wallet(t, db, in.ID), platform(t, db, ledger.Adjustments), count()
	_, err := db.DebitWallet(ctx, in.ID, 1001, "undo the credit")
	var insufficient *ledger.InsufficientFundsError
	if !errors.As(err, &insufficient) || insufficient.Account != ledger.Of(in.ID, ledger.Available) {
		t.Fatalf("overdrawing debit: err = %v, want insufficient funds in available", err)
	}
	if w, adj, n := wallet(t, db, in.ID), platform(t, db, ledger.Adjustments), count(); w != beforeWallet || adj != beforeAdj || n != beforeTx {
		t.Fatalf("refused debit changed something: wallet %+v→%+v adjustments %v→%v transactions %d→%d", beforeWallet, w, beforeAdj, adj, beforeTx, n)
	}
	for _, bad := range []money.Money{0, -100} {
		if _, err := db.DebitWallet(ctx, in.ID, bad, "x"); !errors.Is(err, ledger.ErrInvalid) {
			t.Errorf("debit %v: err = %v, want ErrInvalid", bad, err)
		}
	}
	posted, err := db.DebitWallet(ctx, in.ID, 1000, "undo the credit")
	if err != nil {
		t.Fatal(err)
	}
	if posted.BalanceAfter[ledger.Of(in.ID, ledger.Available)] != 0 || platform(t, db, ledger.Adjustments) != 0 {
		t.Fatalf("debit did not undo the credit: %+v", posted)
	}
	wantWallet(t, db, in.ID, storage.Wallet{Pending: 9850})
	mustAuditClean(t, db)
}

func platform(t *testing.T, db *storage.DB, kind ledger.Kind) money.Money {
	t.Helper()
	m, err := db.PlatformBalance(context.Background(), kind)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
