package storage_test

import (
	"context"
	"errors"
	"testing"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/ledger"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// An operator tells the ledger about money at a provider that no record
// explains (what the account held before PixGate, a tariff): the float
// moves by exactly that, once per reference, the audit stays clean, and a
// provider nobody knows, or an adjustment of zero, changes nothing.
func TestAdjustFloat(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	addProvider(t, db, "b")

	if _, err := db.AdjustFloat(ctx, "b", 50000, "opening balance", "ticket-1"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.AdjustFloat(ctx, "b", 50000, "opening balance", "ticket-1"); !errors.Is(err, ledger.ErrDuplicate) {
		t.Fatalf("the same reference again: %v, want ErrDuplicate", err)
	}
	if _, err := db.AdjustFloat(ctx, storage.DefaultProvider, -1234, "tariff", "ticket-2"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.AdjustFloat(ctx, "nobody", 100, "x", "ticket-3"); !errors.Is(err, storage.ErrUnknownProvider) {
		t.Fatalf("an unknown provider: %v, want ErrUnknownProvider", err)
	}
	if _, err := db.AdjustFloat(ctx, "b", 0, "x", "ticket-4"); !errors.Is(err, ledger.ErrInvalid) {
		t.Fatalf("an adjustment of zero: %v, want ErrInvalid", err)
	}
	floats, err := db.FloatBalances(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if floats["b"] != 50000 || floats[storage.DefaultProvider] != -1234 {
		t.Fatalf("floats = %v; want b 500.00 and default -12.34", floats)
	}
	if got, err := db.PlatformBalance(ctx, ledger.Adjustments); err != nil || got != 50000-1234 {
		t.Fatalf("adjustments account = %v (%v), want the counterpart 487.66", got, err)
	}
	mustAuditClean(t, db)
}
