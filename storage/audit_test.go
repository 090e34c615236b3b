package storage_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/ledger"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// TestAuditDetectsCorruption tampers with the ledger behind Post's back in
// several ways; each one is named by the audit.
func TestAuditDetectsCorruption(t *testing.T) {
	tests := []struct {
		name      string
		tamper    string
		wantCheck []string
	}{
		{"entry amount changed", `UPDATE ledger_entries SET amount = amount + 1 WHERE id = (SELECT max(id) FROM ledger_entries)`,
			[]string{"transaction_unbalanced", "balance_mismatch", "balance_after_mismatch"}},
		{"balance changed", `UPDATE ledger_accounts SET balance = balance + 7 WHERE kind = 'pending' AND integrator_id IS NOT NULL`,
			[]string{"balance_mismatch", "ledger_not_zero"}},
		{"reservation without a withdrawal", `UPDATE withdrawals SET status = 'COMPLETED'`,
			[]string{"reserved_mismatch"}},
		{"entry deleted", `DELETE FROM ledger_entries WHERE id = (SELECT min(id) FROM ledger_entries)`,
			[]string{"transaction_unbalanced", "balance_mismatch"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db := storagetest.NewDB(t)
			ctx := context.Background()
			in := newIntegrator(t, db)
			if _, err := db.CreditWallet(ctx, in.ID, money.FromReais(10, 0), "seed"); err != nil {
				t.Fatal(err)
			}
			if _, _, err := db.CreateWithdrawal(ctx, newWithdrawal(in.ID, 250, 50, "w1")); err != nil {
				t.Fatal(err)
			}
			mustAuditClean(t, db)
			if _, err := db.Pool().Exec(ctx, tt.tamper); err != nil {
				t.Fatal(err)
			}
			v, err := db.Audit(ctx)
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]bool{}
			for _, x := range v {
				got[x.Check] = true
				if strings.TrimSpace(x.Detail) == "" {
					t.Errorf("violation %s has no detail", x.Check)
				}
			}
			for _, c := range tt.wantCheck {
				if !got[c] {
					t.Errorf("audit did not report %s; got %v", c, v)
				}
			}
		})
	}
}

// TestAuditCatchesPendingThatDoesNotMatch: the pending balance must equal
// what paid charges still hold. Each tamper keeps the ledger itself
// balanced, so only the settlement checks can see it.
func TestAuditCatchesPendingThatDoesNotMatch(t *testing.T) {
	tests := []struct {
		name      string
		tamper    func(context.Context, *storage.DB, storage.Charge) error
		wantCheck string
	}{
		{"pending moved to available behind the charge's back", func(ctx context.Context, db *storage.DB, c storage.Charge) error {
			return db.InTx(ctx, func(tx *storage.Tx) error {
				_, err := tx.Post(ctx, ledger.Transaction{Reference: "tamper", Kind: "tamper", Entries: []ledger.Entry{
					{Account: ledger.Of(c.IntegratorID, ledger.Pending), Amount: -100},
					{Account: ledger.Of(c.IntegratorID, ledger.Available), Amount: 100}}})
				return err
			})
		}, "pending_mismatch"},
		{"charge marked released without a posting", func(ctx context.Context, db *storage.DB, c storage.Charge) error {
			_, err := db.Pool().Exec(ctx, `UPDATE charges SET held_amount = 0, released_at = now() WHERE id = $1`, c.ID)
			return err
		}, "pending_mismatch"},
		{"held amount drifted", func(ctx context.Context, db *storage.DB, c storage.Charge) error {
			_, err := db.Pool().Exec(ctx, `UPDATE charges SET held_amount = held_amount - 1 WHERE id = $1`, c.ID)
			return err
		}, "held_mismatch"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db := storagetest.NewDB(t)
			ctx := context.Background()
			in := heldIntegrator(t, db, time.Hour)
			c := payCharge(t, db, in, 10000, time.Now())
			payCharge(t, db, heldIntegrator(t, db, 0), 10000, time.Now())
			mustAuditClean(t, db)
			if err := tt.tamper(ctx, db, c); err != nil {
				t.Fatal(err)
			}
			v, err := db.Audit(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if len(v) != 1 || v[0].Check != tt.wantCheck || !strings.Contains(v[0].Detail, "9850") {
				t.Fatalf("audit = %v, want one %s naming 9850 centavos", v, tt.wantCheck)
			}
		})
	}
}
