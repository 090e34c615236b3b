package storage_test

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/ledger"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/storagetest"
)

func newIntegrator(t testing.TB, db *storage.DB) storage.Integrator {
	t.Helper()
	in, _, err := db.CreateIntegrator(context.Background(), storage.NewIntegrator{
		Name: "Acme", Email: uuid.NewString() + "@example.com", CashIn: money.Percent(15000), CashOut: money.Fixed(0)})
	if err != nil {
		t.Fatal(err)
	}
	return in
}

func newWithdrawal(integrator int64, amount, fee money.Money, externalID string) storage.NewWithdrawal {
	id, _ := uuid.NewV7()
	h := sha256.Sum256([]byte(fmt.Sprint(amount, externalID)))
	nw := storage.NewWithdrawal{ID: id, IntegratorID: integrator, Amount: amount, Fee: fee, RequestHash: h[:],
		CreditParty: storage.CreditParty{Name: "Fulano", KeyType: "EMAIL", Key: "fulano@example.com", TaxID: "52998224725"},
		Outbox:      []storage.OutboxMessage{{Type: "withdrawal:send", ID: "withdrawal:send:" + id.String(), Payload: []byte(`{}`)}}}
	if externalID != "" {
		nw.ExternalID = &externalID
	}
	return nw
}

// TestConcurrentReservationsNeverOverdraw: 200 withdrawals of R$ 1.00 race
// for a wallet holding R$ 100.00, each in a transaction of its own and with
// the group commit on (one integrator's creates then share its flusher's
// batches: one lock and one commit for many). Exactly 100 are reserved,
// the wallet ends at zero, and the audit is clean.
func TestConcurrentReservationsNeverOverdraw(t *testing.T) {
	for _, flushers := range []int{0, 4} {
		t.Run(fmt.Sprintf("%d flushers", flushers), func(t *testing.T) {
			db := storagetest.NewDB(t)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			db.GroupCommit(ctx, flushers, 32)
			in := newIntegrator(t, db)
			if _, err := db.CreditWallet(ctx, in.ID, money.FromReais(100, 0), "seed"); err != nil {
				t.Fatal(err)
			}
			var accepted, refused atomic.Int64
			var wg sync.WaitGroup
			start := make(chan struct{})
			for range 200 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-start
					_, _, err := db.CreateWithdrawal(ctx, newWithdrawal(in.ID, 100, 0, ""))
					switch {
					case err == nil:
						accepted.Add(1)
					case errors.Is(err, ledger.ErrInsufficientFunds):
						refused.Add(1)
					default:
						t.Errorf("CreateWithdrawal: %v", err)
					}
				}()
			}
			close(start)
			wg.Wait()
			if accepted.Load() != 100 || refused.Load() != 100 {
				t.Fatalf("accepted %d, refused %d; want 100 and 100", accepted.Load(), refused.Load())
			}
			w, err := db.Wallet(ctx, in.ID)
			if err != nil || w.Available != 0 || w.Reserved != money.FromReais(100, 0) {
				t.Fatalf("wallet = %+v, %v; want available 0.00, reserved 100.00", w, err)
			}
			var outbox int
			_ = db.Pool().QueryRow(ctx, `SELECT count(*) FROM outbox`).Scan(&outbox)
			if outbox != 100 {
				t.Fatalf("outbox rows = %d, want one per accepted withdrawal", outbox)
			}
			if b := db.GroupBatches(); flushers > 0 && (b == 0 || b >= 200) {
				t.Errorf("%d transactions for 200 creates of one integrator: none shared", b)
			}
			mustAuditClean(t, db)
		})
	}
}

func TestCreateWithdrawalIsIdempotentOnExternalID(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	in := newIntegrator(t, db)
	if _, err := db.CreditWallet(ctx, in.ID, 1000, "seed"); err != nil {
		t.Fatal(err)
	}
	first, created, err := db.CreateWithdrawal(ctx, newWithdrawal(in.ID, 300, 50, "order-1"))
	if err != nil || !created {
		t.Fatalf("first = %v, created %v", err, created)
	}
	again, created, err := db.CreateWithdrawal(ctx, newWithdrawal(in.ID, 300, 50, "order-1"))
	if err != nil || created || again.ID != first.ID {
		t.Fatalf("replay = %v, %v, created %v; want the first withdrawal", again.ID, err, created)
	}
	if _, _, err := db.CreateWithdrawal(ctx, newWithdrawal(in.ID, 400, 50, "order-1")); !errors.Is(err, storage.ErrIdempotencyConflict) {
		t.Fatalf("different body = %v, want ErrIdempotencyConflict", err)
	}
	if w, _ := db.Wallet(ctx, in.ID); w.Available != 650 || w.Reserved != 350 {
		t.Fatalf("wallet = %+v, want one reservation of 3.50", w)
	}
	got, err := db.Transfer(ctx, storage.KindWithdrawal, in.ID, "order-1")
	if err != nil || got.ID != first.ID {
		t.Fatalf("by external_id = %v, %v", got.ID, err)
	}
	if _, err := db.Transfer(ctx, storage.KindWithdrawal, in.ID+1, first.ID.String()); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("another integrator's lookup = %v, want ErrNotFound", err)
	}
	mustAuditClean(t, db)
}

func mustAuditClean(t *testing.T, db *storage.DB) {
	t.Helper()
	v, err := db.Audit(context.Background())
	if err != nil || len(v) > 0 {
		t.Fatalf("audit = %v, %v", v, err)
	}
}

// A replay is answered as the first answer was, even once the wallet no
// longer covers the amount: the balance is checked before the withdrawal
// is written, but a replay's answer never depends on it. A request that
// reuses the external_id is a conflict, whatever the balance.
func TestWithdrawalReplayIsAnsweredWhateverTheBalance(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	in := newIntegrator(t, db)
	if _, err := db.CreditWallet(ctx, in.ID, 350, "seed"); err != nil {
		t.Fatal(err)
	}
	first, created, err := db.CreateWithdrawal(ctx, newWithdrawal(in.ID, 300, 50, "order-1"))
	if err != nil || !created {
		t.Fatalf("first = %v, created %v", err, created)
	}
	again, created, err := db.CreateWithdrawal(ctx, newWithdrawal(in.ID, 300, 50, "order-1"))
	if err != nil || created || again.ID != first.ID || again.CreatedAt != first.CreatedAt {
		t.Fatalf("replay on an empty wallet = %+v, %v, created %v; want the first withdrawal", again, err, created)
	}
	if _, _, err := db.CreateWithdrawal(ctx, newWithdrawal(in.ID, 400, 50, "order-1")); !errors.Is(err, storage.ErrIdempotencyConflict) {
		t.Fatalf("different body on an empty wallet = %v, want ErrIdempotencyConflict", err)
	}
	if _, _, err := db.CreateWithdrawal(ctx, newWithdrawal(in.ID, 400, 50, "order-2")); !errors.Is(err, ledger.ErrInsufficientFunds) {
		t.Fatalf("new request on an empty wallet = %v, want ErrInsufficientFunds", err)
	}
	mustAuditClean(t, db)
}
