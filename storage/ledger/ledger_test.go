package ledger_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/ledger"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/storagetest"
)

func newIntegrator(t *testing.T, db *storage.DB, name string) int64 {
	t.Helper()
	in, _, err := db.CreateIntegrator(context.Background(), storage.NewIntegrator{
		Name: name, Email: name + "@example.com", CashIn: money.Percent(15000), CashOut: money.Fixed(50)})
	if err != nil {
		t.Fatal(err)
	}
	return in.ID
}

func post(db *storage.DB, t ledger.Transaction) error {
	return db.InTx(context.Background(), func(tx *storage.Tx) error {
		_, err := tx.Post(context.Background(), t)
		return err
	})
}

// mustAudit fails the test on any violation except those of the named
// checks (a test that posts without causes skips the checks that compare
// balances with their causes).
func mustAudit(t *testing.T, db *storage.DB, except ...string) {
	t.Helper()
	all, err := db.Audit(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var v []storage.Violation
	for _, x := range all {
		if !slices.Contains(except, x.Check) {
			v = append(v, x)
		}
	}
	if len(v) > 0 {
		t.Fatalf("audit found %d violations: %v", len(v), v)
	}
}

func TestPostRefusesMalformedPostings(t *testing.T) {
	db := storagetest.NewDB(t)
	a := newIntegrator(t, db, "acme")
	if _, err := db.CreditWallet(context.Background(), a, 1000, "seed"); err != nil {
		t.Fatal(err)
	}
	avail, res := ledger.Of(a, ledger.Available), ledger.Of(a, ledger.Reserved)
	tests := []struct {
		name string
		tx   ledger.Transaction
		want error
	}{
		{"unbalanced", ledger.Transaction{Reference: "r1", Kind: "k", Entries: []ledger.Entry{{avail, -100}, {res, 99}}}, ledger.ErrUnbalanced},
		{"one entry", ledger.Transaction{Reference: "r2", Kind: "k", Entries: []ledger.Entry{{avail, 0}}}, ledger.ErrInvalid},
		{"zero entry", ledger.Transaction{Reference: "r3", Kind: "k", Entries: []ledger.Entry{{avail, 0}, {res, 0}}}, ledger.ErrInvalid},
		{"same account twice", ledger.Transaction{Reference: "r4", Kind: "k", Entries: []ledger.Entry{{avail, -1}, {avail, 1}}}, ledger.ErrInvalid},
		{"no reference", ledger.Transaction{Kind: "k", Entries: []ledger.Entry{{avail, -1}, {res, 1}}}, ledger.ErrInvalid},
		{"overdraft", ledger.Transaction{Reference: "r5", Kind: "k", Entries: []ledger.Entry{{avail, -1001}, {res, 1001}}}, ledger.ErrInsufficientFunds},
		{"unknown integrator", ledger.Transaction{Reference: "r6", Kind: "k", Entries: []ledger.Entry{{ledger.Of(999, ledger.Available), -1}, {res, 1}}}, ledger.ErrUnknownAccount},
		{"fees may not go negative", ledger.Transaction{Reference: "r7", Kind: "k", Entries: []ledger.Entry{{ledger.Platform(ledger.Fees), -1}, {avail, 1}}}, ledger.ErrInsufficientFunds},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := post(db, tt.tx); !errors.Is(err, tt.want) {
				t.Fatalf("Post = %v, want %v", err, tt.want)
			}
		})
	}
	w, _ := db.Wallet(context.Background(), a)
	if w.Available != 1000 || w.Reserved != 0 {
		t.Fatalf("refused postings changed the wallet: %+v", w)
	}
	mustAudit(t, db)
}

func TestPostIsOncePerReference(t *testing.T) {
	db := storagetest.NewDB(t)
	a := newIntegrator(t, db, "acme")
	tx := ledger.Transaction{Reference: "adjustment:once", Kind: "adjustment.credit", Entries: []ledger.Entry{
		{ledger.Platform(ledger.Adjustments), -500}, {ledger.Of(a, ledger.Available), 500}}}
	if err := post(db, tx); err != nil {
		t.Fatal(err)
	}
	if err := post(db, tx); !errors.Is(err, ledger.ErrDuplicate) {
		t.Fatalf("second post = %v, want ErrDuplicate", err)
	}
	if w, _ := db.Wallet(context.Background(), a); w.Available != 500 {
		t.Fatalf("available = %v, want 5.00", w.Available)
	}
	mustAudit(t, db)
}

func TestPostRecordsBalanceAfter(t *testing.T) {
	db := storagetest.NewDB(t)
	a := newIntegrator(t, db, "acme")
	for _, amt := range []money.Money{300, 200} {
		if _, err := db.CreditWallet(context.Background(), a, amt, "seed"); err != nil {
			t.Fatal(err)
		}
	}
	rows, _ := db.Pool().Query(context.Background(), `SELECT e.balance_after FROM ledger_entries e
		JOIN ledger_accounts a ON a.id = e.account_id WHERE a.integrator_id = $1 ORDER BY e.id`, a)
	got, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil || fmt.Sprint(got) != "[300 500]" {
		t.Fatalf("balance_after = %v, %v; want [300 500]", got, err)
	}
}

// TestRandomPostingsKeepInvariants fires many random postings between the
// accounts of several integrators and the platform from concurrent
// goroutines; some overdraw and must be refused. Afterwards every balance
// equals a model built from the postings that succeeded, and the audit is
// clean.
func TestRandomPostingsKeepInvariants(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	var accounts []ledger.Account
	for i := range 4 {
		id := newIntegrator(t, db, fmt.Sprintf("int%d", i))
		if _, err := db.CreditWallet(ctx, id, 50_00, "seed"); err != nil {
			t.Fatal(err)
		}
		accounts = append(accounts, ledger.Of(id, ledger.Available), ledger.Of(id, ledger.Pending))
	}
	accounts = append(accounts, ledger.Platform(ledger.Fees), ledger.Float("default"))

	var (
		mu       sync.Mutex
		model    = map[ledger.Account]money.Money{}
		ok, nsf  int
		wg       sync.WaitGroup
		workers  = 8
		postings = 60
	)
	for _, acc := range accounts {
		w, _ := db.Wallet(ctx, acc.Integrator)
		if acc.Kind == ledger.Available {
			model[acc] = w.Available
		}
	}
	for g := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(g), 42))
			for i := range postings {
				perm := rng.Perm(len(accounts))
				n := 2 + rng.IntN(2)
				entries := make([]ledger.Entry, n)
				var sum money.Money
				for j := range n - 1 {
					amt := money.Money(rng.IntN(2000) - 1000)
					if amt == 0 {
						amt = 1
					}
					entries[j] = ledger.Entry{Account: accounts[perm[j]], Amount: amt}
					sum += amt
				}
				if sum == 0 {
					entries[0].Amount++
					sum++
				}
				entries[n-1] = ledger.Entry{Account: accounts[perm[n-1]], Amount: -sum}
				err := post(db, ledger.Transaction{Reference: fmt.Sprintf("rand:%d:%d", g, i), Kind: "test", Entries: entries})
				mu.Lock()
				switch {
				case err == nil:
					ok++
					for _, e := range entries {
						model[e.Account] += e.Amount
					}
				case errors.Is(err, ledger.ErrInsufficientFunds):
					nsf++
				default:
					mu.Unlock()
					t.Errorf("post: %v", err)
					return
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if ok == 0 || nsf == 0 {
		t.Fatalf("want both successes and refusals, got %d ok, %d refused", ok, nsf)
	}
	for _, acc := range accounts {
		var got money.Money
		if acc.Integrator == 0 {
			got, _ = db.PlatformBalance(ctx, acc.Kind)
		} else {
			w, _ := db.Wallet(ctx, acc.Integrator)
			got = map[ledger.Kind]money.Money{ledger.Available: w.Available, ledger.Pending: w.Pending}[acc.Kind]
		}
		if got != model[acc] {
			t.Errorf("%s = %v, model says %v", acc, got, model[acc])
		}
		if acc.Kind != ledger.Provider && got < 0 {
			t.Errorf("%s went negative: %v", acc, got)
		}
	}
	// Random postings to pending and to the float have no held charges,
	// paid charges or settled transfers behind them.
	mustAudit(t, db, "pending_mismatch", "float_mismatch")
}
