package main

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient/sandbox"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// A provider's per-PIX limit at the door: with b's at R$ 150.00, a payout
// routed b→default within it goes to b, one over it to the default
// provider, both completed; with b alone on the route, one over it is
// refused with 422 over_provider_limit naming amount, nothing reserved and
// no record written.
func TestE2EPayoutOverAProvidersLimit(t *testing.T) {
	storagetest.Parallel(t, devStackConns)
	s := newDevStack(t)
	s.addSandbox("b", sandbox.ContractEfi)
	var p providerView
	s.pg.json(&p, "provider", "update", "b", "--max-per-pix", "150.00")
	if p.MaxPerPix == nil || p.MaxPerPix.String() != "150.00" {
		t.Fatalf("provider b after update: %+v", p)
	}
	integrator := fmt.Sprint(s.integratorID)
	s.pg.json(&routeView{}, "route", "set", "--integrator", integrator, "--charges", "default", "--withdrawals", "b")
	s.credit("1000.00")

	before := s.wallet()
	code, v := s.call(http.MethodPost, "/api/v1/withdrawals", map[string]any{"amount": 150.01, "creditParty": creditParty("beltrano@example.com"),
		"external_id": "over-the-limit"})
	if code != http.StatusUnprocessableEntity || v["code"] != "over_provider_limit" || v["errors"].(map[string]any)["amount"] == nil {
		t.Fatalf("a payout over the only provider's limit: %d %v; want 422 over_provider_limit on amount", code, v)
	}
	if after := s.wallet(); after != before {
		t.Fatalf("wallet %+v after the refusal, was %+v", after, before)
	}
	if code, v := s.call(http.MethodGet, "/api/v1/withdrawals/over-the-limit", nil); code != http.StatusNotFound {
		t.Fatalf("the refused payout's record: %d %v; want none", code, v)
	}

	s.pg.json(&routeView{}, "route", "set", "--integrator", integrator, "--charges", "default", "--withdrawals", "b,default")
	time.Sleep(2500 * time.Millisecond) // the API's snapshot of the routes lives two seconds
	sent := map[string]string{}
	for _, amount := range []float64{150.00, 150.01, 600.00} {
		code, v := s.call(http.MethodPost, "/api/v1/withdrawals", map[string]any{"amount": amount, "creditParty": creditParty("beltrano@example.com")})
		if code != http.StatusCreated {
			t.Fatalf("payout of %.2f: %d %v", amount, code, v)
		}
		sent[v["id"].(string)] = v["provider"].(string)
		want := "b"
		if amount > 150 {
			want = "default"
		}
		if v["provider"] != want {
			t.Fatalf("payout of %.2f routed to %v, want %s", amount, v["provider"], want)
		}
	}
	for id := range sent {
		s.eventually("withdrawal "+id+" COMPLETED", time.Minute, func() bool { return s.status("withdrawals", id) == "COMPLETED" })
	}
	s.auditClean()
}

// A withdrawal to a key the DICT marks for fraud, on a route of two
// providers: the first refuses it, and it fails with key_fraud_marked at
// once, its money back, never sent to the second.
func TestE2EFraudMarkedKeyIsNeverFailedOver(t *testing.T) {
	storagetest.Parallel(t, devStackConns)
	s := newDevStack(t)
	b := s.addSandbox("b", sandbox.ContractEfi)
	s.pg.json(&routeView{}, "route", "set", "--integrator", fmt.Sprint(s.integratorID), "--charges", "default", "--withdrawals", "default,b")
	s.credit("50.00")
	code, v := s.call(http.MethodPost, "/api/v1/withdrawals", map[string]any{"amount": 10, "creditParty": creditParty("fraude@example.com")})
	id, _ := v["id"].(string)
	if code != http.StatusCreated || v["provider"] != "default" {
		t.Fatalf("withdrawal to a flagged key: %d %v", code, v)
	}
	s.eventually("withdrawal to a flagged key FAILED", 10*time.Second, func() bool { return s.status("withdrawals", id) == "FAILED" })
	_, w := s.call(http.MethodGet, "/api/v1/withdrawals/"+id, nil)
	if reason, _ := w["failure_reason"].(string); w["provider"] != "default" || len(reason) < 18 || reason[:18] != "key_fraud_marked: " {
		t.Fatalf("failed withdrawal %v; want it at default, its reason key_fraud_marked", w)
	}
	if wl := s.wallet(); wl.Reserved != 0 || wl.Available.String() != "50.00" {
		t.Fatalf("wallet %+v", wl)
	}
	if code, held := doJSON(t, http.MethodGet, b.control+"/sandbox/transactions", "", nil); code != http.StatusOK || len(held["transactions"].([]any)) != 0 {
		t.Fatalf("provider b holds %v (%d); the withdrawal must never reach it", held["transactions"], code)
	}
}
