package main

import (
	"context"
	"strings"
	"testing"
)

// The API's database sessions carry PIXGATE_DATABASE_LOCK_TIMEOUT,
// _QUERY_TIMEOUT and _IDLE_TX_TIMEOUT, so a request never
// holds its pooled connection for long; the worker's and the operator
// commands' sessions do not, their long operations untouched.
func TestTheAPIsDatabaseSessionsHaveTimeouts(t *testing.T) {
	p := newPixgate(t)
	p.env["PIXGATE_DATABASE_LOCK_TIMEOUT"] = "1500ms"
	cfg, err := loadConfig(p.env)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	settings := func(servesAPI bool) []string {
		t.Helper()
		c := &cli{cfg: cfg, servesAPI: servesAPI}
		db, err := c.openMigratedDB(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		var lock, statement, idle string
		if err := db.Pool().QueryRow(ctx, `SELECT current_setting('lock_timeout'), current_setting('statement_timeout'),
			current_setting('idle_in_transaction_session_timeout')`).Scan(&lock, &statement, &idle); err != nil {
			t.Fatal(err)
		}
		return []string{lock, statement, idle}
	}
	if got, want := settings(true), []string{"1500ms", "10s", "1min"}; strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("api: lock, statement, idle-in-transaction timeouts %v, want %v", got, want)
	}
	if got := settings(false); strings.Join(got, " ") != "0 0 0" {
		t.Errorf("worker and operator commands: %v, want none", got)
	}

	for _, bad := range []string{"-1s", "10us"} {
		_, err := loadConfig(map[string]string{"PIXGATE_DATABASE_QUERY_TIMEOUT": bad})
		if err == nil || !strings.Contains(err.Error(), "PIXGATE_DATABASE_QUERY_TIMEOUT: must be 0 (no limit) or at least 1ms") {
			t.Errorf("PIXGATE_DATABASE_QUERY_TIMEOUT=%s: %v", bad, err)
		}
	}
}
