package storage_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/ledger"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// With the group commit on, concurrent creates share transactions and each
// keeps its own answer: eight wallets of R$ 20.00 each take forty R$ 1.00
// creates each (twenty reserved, twenty refused for funds), while pairs of
// identical requests race on a ninth wallet (one creates, the other
// replays it). Balances, outbox rows and the audit agree.
func TestGroupCommitKeepsEachCreatesAnswer(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	db.GroupCommit(ctx, 2, 16)

	var wallets []storage.Integrator
	for range 9 {
		in := newIntegrator(t, db)
		if _, err := db.CreditWallet(ctx, in.ID, 2000, "seed"); err != nil {
			t.Fatal(err)
		}
		wallets = append(wallets, in)
	}
	var (
		wg               sync.WaitGroup
		created, refused [9]atomic.Int64
		mu               sync.Mutex
		pairs            = map[string][]uuid.UUID{}
		start            = make(chan struct{})
	)
	run := func(i int, nw storage.NewWithdrawal) {
		defer wg.Done()
		<-start
		w, isNew, err := db.CreateWithdrawal(ctx, nw)
		switch {
		case err == nil && isNew:
			created[i].Add(1)
		case errors.Is(err, ledger.ErrInsufficientFunds):
			refused[i].Add(1)
		case err != nil:
			t.Errorf("create: %v", err)
			return
		}
		if nw.ExternalID != nil {
			mu.Lock()
			pairs[*nw.ExternalID] = append(pairs[*nw.ExternalID], w.ID)
			mu.Unlock()
		}
	}
	for i := range 8 {
		for range 40 {
			wg.Add(1)
			go run(i, newWithdrawal(wallets[i].ID, 100, 0, ""))
		}
	}
	for p := range 10 {
		for range 2 {
			wg.Add(1)
			go run(8, newWithdrawal(wallets[8].ID, 100, 0, fmt.Sprint("pair-", p)))
		}
	}
	close(start)
	wg.Wait()

	for i := range 8 {
		if created[i].Load() != 20 || refused[i].Load() != 20 {
			t.Errorf("wallet %d: %d created, %d refused; want 20 and 20", i, created[i].Load(), refused[i].Load())
		}
		if w, _ := db.Wallet(ctx, wallets[i].ID); w.Available != 0 || w.Reserved != 2000 {
			t.Errorf("wallet %d = %+v", i, w)
		}
	}
	for ext, ids := range pairs {
		if len(ids) != 2 || ids[0] != ids[1] {
			t.Errorf("%s answered %v; want the same withdrawal twice", ext, ids)
		}
	}
	if created[8].Load() != 10 {
		t.Errorf("%d pairs created, want 10", created[8].Load())
	}
	var outbox int
	_ = db.Pool().QueryRow(ctx, `SELECT count(*) FROM outbox`).Scan(&outbox)
	if outbox != 8*20+10 {
		t.Errorf("%d outbox rows, want one per created withdrawal", outbox)
	}
	if b := db.GroupBatches(); b == 0 || b >= 8*40+20 {
		t.Errorf("%d transactions for %d creates: none shared", b, 8*40+20)
	}
	mustAuditClean(t, db)
}

// When the server refuses one statement of a batch, the whole transaction
// is rolled back: every create of it runs again alone, so only the faulty
// one fails and the others get the answers they would have had alone.
func TestGroupCommitBatchWithAFaultyCreate(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	a, b := newIntegrator(t, db), newIntegrator(t, db)
	for _, in := range []storage.Integrator{a, b} {
		if _, err := db.CreditWallet(ctx, in.ID, 1000, "seed"); err != nil {
			t.Fatal(err)
		}
	}
	faulty := newWithdrawal(b.ID, 110, -10, "") // a negative fee: the table's CHECK refuses the statement

	answers := db.CreateWithdrawalsTogether(ctx, []storage.NewWithdrawal{
		newWithdrawal(a.ID, 200, 0, ""), faulty, newWithdrawal(b.ID, 300, 0, ""), newWithdrawal(b.ID, 5000, 0, ""),
	})
	if !answers[0].Created || answers[0].Err != nil || !answers[2].Created || answers[2].Err != nil {
		t.Fatalf("the sound creates: %+v, %+v", answers[0], answers[2])
	}
	if answers[1].Created || answers[1].Err == nil || ledger.IsRefusal(answers[1].Err) {
		t.Fatalf("the faulty create: %+v", answers[1])
	}
	if answers[3].Created || !errors.Is(answers[3].Err, ledger.ErrInsufficientFunds) {
		t.Fatalf("the create beyond the wallet: %+v", answers[3])
	}
	if w, _ := db.Wallet(ctx, a.ID); w.Reserved != 200 {
		t.Fatalf("wallet a = %+v", w)
	}
	if w, _ := db.Wallet(ctx, b.ID); w.Reserved != 300 {
		t.Fatalf("wallet b = %+v", w)
	}
	mustAuditClean(t, db)
}
