package ledger_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/pixgate/pixgate/storage/ledger"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// TestPlatformPostingsSpreadOverShards: postings to a platform account land
// on several of its rows, not one row that every settlement in the
// deployment would wait on; the account's balance is the sum of them, and
// the audit is clean.
func TestPlatformPostingsSpreadOverShards(t *testing.T) {
	ctx := context.Background()
	db := storagetest.NewDB(t)
	a := newIntegrator(t, db, "acme")
	if _, err := db.CreditWallet(ctx, a, 10_000, "seed"); err != nil {
		t.Fatal(err)
	}
	const n = 32
	for i := range n {
		err := post(db, ledger.Transaction{Reference: fmt.Sprintf("settle:%d", i), Kind: "float.test", Entries: []ledger.Entry{
			{Account: ledger.Of(a, ledger.Available), Amount: -150},
			{Account: ledger.Float("default"), Amount: 100},
			{Account: ledger.Platform(ledger.Fees), Amount: 50}}})
		if err != nil {
			t.Fatal(err)
		}
	}
	used := map[string]int{}
	rows, _ := db.Pool().Query(ctx, `SELECT a.kind, count(DISTINCT a.id) FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id
		WHERE a.integrator_id IS NULL AND a.kind IN ('provider', 'fees') GROUP BY a.kind`)
	var (
		kind  string
		count int
	)
	if _, err := pgx.ForEachRow(rows, []any{&kind, &count}, func() error { used[kind] = count; return nil }); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"provider", "fees"} {
		if used[k] < 4 {
			t.Errorf("%d postings to %s used %d of its rows; want them spread over its shards", n, k, used[k])
		}
	}
	for kind, want := range map[ledger.Kind]money.Money{ledger.Provider: 100 * n, ledger.Fees: 50 * n} {
		if got, err := db.PlatformBalance(ctx, kind); err != nil || got != want {
			t.Errorf("PlatformBalance(%s) = %v, %v; want %v", kind, got, err, want)
		}
	}
	mustAudit(t, db)
}

// A reference whose 32-bit hash is the int minimum made abs() raise
// "integer out of range", so its posting failed on every retry. Every hash
// gives a shard in range.
func TestShardOfEveryHashIsInRange(t *testing.T) {
	db := storagetest.NewDB(t)
	for _, h := range []string{"-2147483648", "-2147483647", "-1", "0", "2147483647"} {
		var shard int64
		q := "SELECT " + ledger.ShardOf("("+h+")::int", "16")
		if err := db.Pool().QueryRow(context.Background(), q).Scan(&shard); err != nil {
			t.Fatalf("hash %s: %v", h, err)
		}
		if shard < 0 || shard >= 16 {
			t.Fatalf("hash %s: shard %d, want 0..15", h, shard)
		}
	}
}
