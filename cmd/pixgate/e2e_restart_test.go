package main

import (
	"net/http"
	"testing"
	"time"

	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// The provider does not forget across a restart of pixgate dev: a charge
// issued before it is paid after it and credited; a payment it was still
// settling completes; its ledger still lists both.
func TestE2ESandboxKeepsItsStateAcrossARestart(t *testing.T) {
	storagetest.Parallel(t, devStackConns)
	s := newDevStack(t)
	s.credit("100.00")
	id, pixID := s.createCharge(100.00, map[string]any{"external_id": "order-1"})
	s.control(http.MethodPost, "/sandbox/faults", map[string]any{"auto_settle": false})
	code, v := s.call(http.MethodPost, "/api/v1/withdrawals", map[string]any{"amount": 10.00, "creditParty": creditParty("beltrano@example.com")})
	if code != http.StatusCreated {
		t.Fatalf("create withdrawal: %d %v", code, v)
	}
	wd := v["id"].(string)
	s.eventually("the payment at the sandbox", 5*time.Second, func() bool { return len(s.sandboxLedger("PAYMENT")) == 1 })

	s.restart()

	if ledger := s.sandboxLedger(""); len(ledger) != 2 || ledger[0]["transactionId"] != pixID || ledger[1]["status"] == nil {
		t.Fatalf("sandbox ledger after the restart: %v", ledger)
	}
	if c, paid := s.control(http.MethodPost, "/sandbox/charges/"+pixID+"/pay", nil); c != http.StatusOK {
		t.Fatalf("pay after the restart: %d %v", c, paid)
	}
	s.eventually("charge PAID", 5*time.Second, func() bool { return s.status("charges", id) == "PAID" })
	s.eventually("withdrawal COMPLETED", 5*time.Second, func() bool { return s.status("withdrawals", wd) == "COMPLETED" })
	if w := s.wallet(); w.Available != money.FromReais(188, 0) || w.Reserved != 0 {
		t.Fatalf("wallet %+v, want 188.00 available (100.00 − 10.50 + 98.50), nothing reserved", w)
	}
	s.auditClean()
}

// sandboxLedger is GET /sandbox/transactions, of one type or all.
func (s *devStack) sandboxLedger(kind string) []map[string]any {
	s.t.Helper()
	code, v := s.control(http.MethodGet, "/sandbox/transactions?type="+kind, nil)
	list, ok := v["transactions"].([]any)
	if code != http.StatusOK || !ok {
		s.t.Fatalf("GET /sandbox/transactions: %d %v", code, v)
	}
	out := make([]map[string]any, 0, len(list))
	for _, tx := range list {
		out = append(out, tx.(map[string]any))
	}
	return out
}
