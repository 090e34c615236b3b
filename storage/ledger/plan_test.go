package ledger_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/ledger"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// TestPostPlansWithoutSeqScan: every statement of a posting (the account
// locks above all) must find its rows through an index however many
// integrators there are, under the generic plan Postgres switches a
// prepared statement to after a few executions as well as under a custom
// one. A plan that reads all of ledger_accounts makes every posting cost
// grow with the number of integrators. auto_explain reports the plan of
// the statement Post runs, as the server ran it.
func TestPostPlansWithoutSeqScan(t *testing.T) {
	ctx := context.Background()
	url := storagetest.NewDatabaseURL(t)
	db, err := storage.Open(ctx, storage.Config{URL: url, MaxConns: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	a := newIntegrator(t, db, "acme")
	if _, err := db.CreditWallet(ctx, a, 1000, "seed"); err != nil {
		t.Fatal(err)
	}
	postings := map[string]ledger.Transaction{
		"integrator accounts": {Reference: "plan:reserve", Kind: "test", Entries: []ledger.Entry{
			{Account: ledger.Of(a, ledger.Available), Amount: -150}, {Account: ledger.Of(a, ledger.Reserved), Amount: 150}}},
		"integrator and platform accounts": {Reference: "plan:mixed", Kind: "test", Entries: []ledger.Entry{
			{Account: ledger.Platform(ledger.Adjustments), Amount: -100}, {Account: ledger.Of(a, ledger.Available), Amount: 50},
			{Account: ledger.Platform(ledger.Fees), Amount: 50}}},
	}
	// The table grows in steps, each with fresh statistics: which plan
	// Postgres prefers depends on the table's size. (Below a thousand
	// integrators the table is a few pages, and reading them all is the
	// cheapest plan for any query.)
	integrators := 1
	for _, size := range []int{1000, 10000, 50000} {
		fillIntegrators(t, db, size-integrators)
		integrators = size
		for _, mode := range []string{"force_generic_plan", "force_custom_plan"} {
			for name, tx := range postings {
				t.Run(fmt.Sprintf("%d/%s/%s", size, mode, name), func(t *testing.T) {
					plans := explainPost(t, url, mode, tx)
					if len(plans) == 0 {
						t.Fatalf("auto_explain reported %d plans: %q", len(plans), plans)
					}
					for _, plan := range plans {
						if scans := seqScans(t, plan); len(scans) > 0 {
							t.Fatalf("a posting's statement scans %v under %s:\n%s", scans, mode, plan)
						}
					}
				})
			}
		}
	}
}

// explainPost runs one posting (rolled back) under plan_cache_mode mode and
// returns the plan of every statement it ran, as auto_explain reports them.
func explainPost(t *testing.T, url, mode string, tx ledger.Transaction) []string {
	t.Helper()
	ctx := context.Background()
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		t.Fatal(err)
	}
	var (
		mu    sync.Mutex
		plans []string
	)
	cfg.OnNotice = func(_ *pgconn.PgConn, n *pgconn.Notice) {
		if _, plan, ok := strings.Cut(n.Message, "plan:"); ok {
			mu.Lock()
			plans = append(plans, plan)
			mu.Unlock()
		}
	}
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	for _, set := range []string{`LOAD 'auto_explain'`, `SET auto_explain.log_min_duration = 0`,
		`SET auto_explain.log_nested_statements = on`, `SET auto_explain.log_format = json`,
		`SET plan_cache_mode = ` + mode} {
		if _, err := conn.Exec(ctx, set); err != nil {
			t.Fatal(err)
		}
	}
	err = pgx.BeginFunc(ctx, conn, func(sqlTx pgx.Tx) error {
		if _, err := sqlTx.Exec(ctx, `SET LOCAL client_min_messages = log`); err != nil {
			return err
		}
		if _, err := ledger.Post(ctx, sqlTx, tx); err != nil {
			return err
		}
		return errRollback
	})
	if err != errRollback {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	return plans
}

var errRollback = fmt.Errorf("rolled back on purpose")

// fillIntegrators adds n integrators with their three accounts, and
// refreshes the planner's statistics. The tables are vacuumed here and
// never by autovacuum, which could run at any moment of the test and change
// what the planner knows (the pages' count, which are all visible) between
// two of its plans.
func fillIntegrators(t *testing.T, db *storage.DB, n int) {
	t.Helper()
	ctx := context.Background()
	for _, table := range []string{"integrators", "ledger_accounts"} {
		if _, err := db.Pool().Exec(ctx, `ALTER TABLE `+table+` SET (autovacuum_enabled = false)`); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Pool().Exec(ctx, `
		WITH i AS (
		  INSERT INTO integrators (name, email, cashin_fee_kind, cashin_fee_value, cashout_fee_kind, cashout_fee_value, webhook_secret)
		  SELECT 'filler', 'filler-' || gen_random_uuid() || '@example.com', 'fixed', 0, 'fixed', 0, 'x' FROM generate_series(1, $1) g
		  RETURNING id)
		INSERT INTO ledger_accounts (integrator_id, kind) SELECT i.id, k FROM i, unnest('{available,pending,reserved}'::text[]) k`, n); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Pool().Exec(ctx, `VACUUM (ANALYZE) integrators, ledger_accounts`); err != nil {
		t.Fatal(err)
	}
}

// seqScans lists the relations an auto_explain JSON plan reads with a
// sequential scan.
func seqScans(t *testing.T, plan string) []string {
	t.Helper()
	var doc struct{ Plan node }
	if err := json.Unmarshal([]byte(plan), &doc); err != nil {
		t.Fatalf("auto_explain output %q: %v", plan, err)
	}
	var found []string
	var walk func(n node)
	walk = func(n node) {
		if n.NodeType == "Seq Scan" {
			found = append(found, n.Relation)
		}
		for _, c := range n.Plans {
			walk(c)
		}
	}
	walk(doc.Plan)
	return found
}

type node struct {
	NodeType string `json:"Node Type"`
	Relation string `json:"Relation Name"`
	Plans    []node `json:"Plans"`
}
