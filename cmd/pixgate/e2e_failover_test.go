package main

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient/sandbox"
)

// An integrator routed over the default provider, then b (another
// contract): with the default down, 50 charges in a row are created, all at
// b and nowhere else; with the default back, new charges go to it again.
func TestE2EChargesFailOverAndBack(t *testing.T) {
	s := newDevStack(t)
	b := s.addSandbox("b", sandbox.ContractEfi)
	s.pg.json(&routeView{}, "route", "set", "--integrator", fmt.Sprint(s.integratorID), "--charges", "default,b", "--withdrawals", "default,b")
	if code, v := s.control(http.MethodPost, "/sandbox/faults", map[string]any{"outage": true}); code != http.StatusOK {
		t.Fatalf("outage of the default provider: %d %v", code, v)
	}

	charge := func(i int) map[string]any {
		t.Helper()
		code, v := s.call(http.MethodPost, "/api/v1/charges", map[string]any{"amount": 10.00, "payer": payer,
			"external_id": fmt.Sprintf("failover-%d", i), "postbackUrl": s.receiver.URL + "/pix"})
		if code != http.StatusCreated {
			t.Fatalf("charge %d: %d %v", i, code, v)
		}
		return v
	}
	for i := range 50 {
		if v := charge(i); v["provider"] != "b" {
			t.Fatalf("charge %d with the default provider down: created at %v", i, v["provider"])
		}
	}
	if code, v := doJSON(t, http.MethodGet, b.control+"/sandbox/transactions", "", nil); code != http.StatusOK ||
		len(v["transactions"].([]any)) != 50 {
		t.Fatalf("sandbox b holds %v (%d), want the 50 charges", v["transactions"], code)
	}
	if code, v := doJSON(t, http.MethodGet, s.sandbox+"/sandbox/transactions", "", nil); code != http.StatusOK ||
		len(v["transactions"].([]any)) != 0 {
		t.Fatalf("the default sandbox, down, holds %v (%d)", v["transactions"], code)
	}

	if code, v := s.control(http.MethodDelete, "/sandbox/faults", nil); code != http.StatusOK {
		t.Fatalf("the default provider back: %d %v", code, v)
	}
	n := 50
	s.eventually("a new charge at the default provider again", time.Minute, func() bool {
		n++
		return charge(n)["provider"] == "default"
	})
	s.auditClean()
}
