package main

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient/sandbox"
	"github.com/pixgate/pixgate/storage/money/due"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// A due-date charge goes to the first provider of its route that can hold
// its terms exactly: woovi (the default here) counts no business days, so
// a charge whose interest counts them is passed over to b (efi), issued,
// paid and credited there once; one woovi can hold stays with woovi.
func TestDueChargeGoesWhereItsTermsCanBeHeld(t *testing.T) {
	storagetest.Parallel(t, devStackConns)
	s := newDevStack(t, contractEnv(t, "woovi")...)
	b := s.addSandbox("b", sandbox.ContractEfi)
	s.pg.json(&routeView{}, "route", "set", "--integrator", fmt.Sprint(s.integratorID), "--charges", "default,b", "--withdrawals", "default")
	date := due.Today(time.Now()).AddDays(5).String()
	create := func(ext, days string) map[string]any {
		t.Helper()
		code, v := s.call(http.MethodPost, "/api/v1/charges", map[string]any{"amount": 50.00, "payer": payer, "external_id": ext,
			"due": map[string]any{"date": date, "interest": map[string]any{"mode": "percent_per_day", "value": 0.10, "days": days}}})
		if code != http.StatusCreated {
			t.Fatalf("%s: %d %v", ext, code, v)
		}
		return v
	}
	business := create("due-business-days", "business")
	if business["provider"] != "b" {
		t.Fatalf("interest by business days issued at %v, want b", business["provider"])
	}
	if code, out := doJSON(t, http.MethodPost, b.control+"/sandbox/charges/"+business["pix_id"].(string)+"/pay", "", nil); code != http.StatusOK {
		t.Fatalf("pay at b: %d %v", code, out)
	}
	id := business["id"].(string)
	s.eventually("the charge paid at b PAID", 30*time.Second, func() bool { return s.status("charges", id) == "PAID" })
	if calendar := create("due-calendar-days", "calendar"); calendar["provider"] != "default" {
		t.Fatalf("interest by calendar days issued at %v, want the default (woovi)", calendar["provider"])
	}
	if code, v := doJSON(t, http.MethodGet, s.sandbox+"/sandbox/transactions", "", nil); code != http.StatusOK || len(v["transactions"].([]any)) != 1 {
		t.Fatalf("the woovi sandbox holds %v, want the one charge it can hold", v["transactions"])
	}
	// With woovi alone on the route, the answer says which term it cannot hold.
	s.pg.json(&routeView{}, "route", "set", "--integrator", fmt.Sprint(s.integratorID), "--charges", "default", "--withdrawals", "default")
	time.Sleep(2500 * time.Millisecond) // the API routes by a snapshot of the routes at most 2 s old
	code, v := s.call(http.MethodPost, "/api/v1/charges", map[string]any{"amount": 50.00, "payer": payer, "external_id": "due-nowhere",
		"due": map[string]any{"date": date, "interest": map[string]any{"mode": "percent_per_day", "value": 0.10, "days": "business"}}})
	if msg, _ := v["message"].(string); code != http.StatusNotImplemented || !strings.Contains(msg, "due.interest.days") {
		t.Errorf("terms no provider of the route can hold: %d %v", code, v)
	}
	s.auditClean()
}
