package api

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

// In the attack run a request waiting on a row lock held its pooled
// connection for as long as the lock was held: no lock timeout. With the
// database sessions' lock timeout, a withdrawal whose wallet another
// transaction holds gives up after it with 503 service_unavailable and
// Retry-After (never a 500), nothing reserved, its connection back in the
// pool; the same request succeeds once the lock is released.
func TestARequestWaitingOnARowLockGivesUpAndReleasesItsConnection(t *testing.T) {
	const lockTimeout = 300 * time.Millisecond
	e := newEnv(t, func(s *setup) { s.pool = storage.Config{Timeouts: storage.SessionTimeouts{Lock: lockTimeout}} })
	in, token := e.integrator("Loja Travada", money.Percent(0), money.Fixed(50))
	e.fund(in.ID, 100_00)

	ctx := context.Background()
	holder, err := pgx.Connect(ctx, e.db.Pool().Config().ConnString())
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close(ctx)
	tx, err := holder.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	if _, err := tx.Exec(ctx, `SELECT balance FROM ledger_accounts WHERE integrator_id = $1 FOR UPDATE`, in.ID); err != nil {
		t.Fatal(err)
	}

	start := time.Now()
	r := e.call(http.MethodPost, "/api/v1/withdrawals", token, validWithdrawal(nil)).expectError(t, http.StatusServiceUnavailable, codeUnavailable)
	if took := time.Since(start); took > lockTimeout+5*time.Second {
		t.Errorf("the refusal took %s with a lock timeout of %s", took, lockTimeout)
	}
	if r.header.Get("Retry-After") != "1" || !strings.Contains(r.str("message"), "Retry shortly") {
		t.Errorf("refusal: Retry-After %q, %s", r.header.Get("Retry-After"), r.raw)
	}
	if held := e.db.Pool().Stat().AcquiredConns(); held != 0 {
		t.Errorf("%d connections still held after the answer", held)
	}
	if w := e.wallet(in.ID); w.Available != 100_00 || w.Reserved != 0 {
		t.Errorf("the refused withdrawal moved money: %+v", w)
	}
	if logs := e.logs.String(); strings.Contains(logs, "request failed") {
		t.Errorf("a lock timeout was logged as a fault:\n%s", logs)
	}

	if err := tx.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	e.call(http.MethodPost, "/api/v1/withdrawals", token, validWithdrawal(nil)).expect(t, http.StatusCreated)
	if w := e.wallet(in.ID); w.Reserved != 25_60 {
		t.Errorf("after the lock was released: %+v", w)
	}
}
