package main

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient/sandbox"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// An integrator routed over the default provider, then b (another
// contract): with the default down, 50 charges in a row are created, all at
// b and nowhere else, and those paid there are credited once each; with
// the default back, new charges go to it again.
func TestE2EChargesFailOverAndBack(t *testing.T) {
	storagetest.Parallel(t, devStackConns)
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
	var paid []string
	for i := range 50 {
		v := charge(i)
		if v["provider"] != "b" {
			t.Fatalf("charge %d with the default provider down: created at %v", i, v["provider"])
		}
		if i%10 == 0 {
			if code, out := doJSON(t, http.MethodPost, b.control+"/sandbox/charges/"+v["pix_id"].(string)+"/pay", "", nil); code != http.StatusOK {
				t.Fatalf("pay charge %d at b: %d %v", i, code, out)
			}
			paid = append(paid, v["id"].(string))
		}
	}
	for _, id := range paid {
		s.eventually("charge "+id+" paid at b PAID", 30*time.Second, func() bool { return s.status("charges", id) == "PAID" })
	}
	// Credited once each: 10.00 less 1.5%.
	if w := s.wallet(); w.Available != money.Money(len(paid))*money.FromReais(9, 85) {
		t.Fatalf("wallet available = %v after %d charges paid at b, want %d × 9.85", w.Available, len(paid), len(paid))
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

// Withdrawals while the default provider is down, then while it takes
// sends and never answers them: each is sent to exactly one provider
// (every id at most once across both sandboxes' ledgers, at the provider
// PixGate records), ambiguous ones stay with their provider and are
// resolved there, and every one ends COMPLETED, debited once.
func TestE2EWithdrawalsDuringAnOutageAreSentOnce(t *testing.T) {
	storagetest.Parallel(t, devStackConns)
	// No request budget: the test polls every withdrawal's status.
	s := newDevStack(t, "PIXGATE_PROVIDER_TIMEOUT", "2s", "PIXGATE_V1_RATE_PER_MINUTE", "-1")
	b := s.addSandbox("b", sandbox.ContractEfi)
	s.pg.json(&routeView{}, "route", "set", "--integrator", fmt.Sprint(s.integratorID), "--charges", "default,b", "--withdrawals", "default,b")
	s.credit("1000.00")
	withdraw := func(n int) (ids []string) {
		t.Helper()
		for range n {
			code, v := s.call(http.MethodPost, "/api/v1/withdrawals", map[string]any{
				"amount": 10.00, "creditParty": creditParty("beltrano@example.com"), "postbackUrl": s.receiver.URL + "/out"})
			if code != http.StatusCreated {
				t.Fatalf("create withdrawal: %d %v", code, v)
			}
			ids = append(ids, v["id"].(string))
		}
		return ids
	}
	fault := func(f map[string]any) {
		t.Helper()
		if code, v := s.control(http.MethodPost, "/sandbox/faults", f); code != http.StatusOK {
			t.Fatalf("faults %v: %d %v", f, code, v)
		}
	}

	// payments counts the PIX sent a sandbox holds, by PixGate's id
	// without hyphens (the efi contract's idEnvio).
	payments := func(control string) map[string]int {
		t.Helper()
		_, v := doJSON(t, http.MethodGet, control+"/sandbox/transactions", "", nil)
		held := map[string]int{}
		for _, tx := range v["transactions"].([]any) {
			if tx := tx.(map[string]any); tx["transactionType"] == "PAYMENT" {
				held[strings.ReplaceAll(fmt.Sprint(tx["external_id"]), "-", "")]++
			}
		}
		return held
	}

	fault(map[string]any{"outage": true})
	ids := withdraw(20)
	// The outage's failed sends may open the default provider's breaker,
	// and while it is open a send moves on to b, as it should; the
	// ambiguous sends below must reach the default. So the outage ends and
	// its withdrawals with it, and the default is back in service when
	// withdrawals sent while it is healthy complete there three in a row
	// (a half-open breaker's probes close it).
	if code, v := s.control(http.MethodDelete, "/sandbox/faults", nil); code != http.StatusOK {
		t.Fatalf("the outage over: %d %v", code, v)
	}
	for _, id := range ids {
		s.eventually("withdrawal "+id+" COMPLETED", time.Minute, func() bool { return s.status("withdrawals", id) == "COMPLETED" })
	}
	inARow := 0
	s.eventually("the default provider in service again", 30*time.Second, func() bool {
		id := withdraw(1)[0]
		ids = append(ids, id)
		s.eventually("withdrawal "+id+" COMPLETED", 30*time.Second, func() bool { return s.status("withdrawals", id) == "COMPLETED" })
		if _, v := s.call(http.MethodGet, "/api/v1/withdrawals/"+id, nil); v["provider"] == "default" {
			inARow++
		} else {
			inARow = 0
		}
		return inARow >= 3
	})
	// Sent and never answered: outcomes unknown, to be read at the default.
	fault(map[string]any{"timeout_rate": 1.0, "routes": []string{"/v2/pix/payment"}})
	ambiguous := withdraw(3)
	s.eventually("the default sandbox took the unanswered sends", 30*time.Second, func() bool {
		held := payments(s.sandbox)
		for _, id := range ambiguous {
			if held[strings.ReplaceAll(id, "-", "")] == 0 {
				return false
			}
		}
		return true
	})
	if code, v := s.control(http.MethodDelete, "/sandbox/faults", nil); code != http.StatusOK {
		t.Fatalf("the default provider back: %d %v", code, v)
	}
	ids = append(ids, ambiguous...)
	for _, id := range ids {
		s.eventually("withdrawal "+id+" COMPLETED", time.Minute, func() bool { return s.status("withdrawals", id) == "COMPLETED" })
	}

	// Every PixGate id at the provider PixGate records, once, and nowhere else.
	atDefault, atB := payments(s.sandbox), payments(b.control)
	for _, id := range ids {
		_, v := s.call(http.MethodGet, "/api/v1/withdrawals/"+id, nil)
		key := strings.ReplaceAll(id, "-", "")
		want := map[any][2]int{"default": {1, 0}, "b": {0, 1}}[v["provider"]]
		if got := [2]int{atDefault[key], atB[key]}; got != want {
			t.Fatalf("withdrawal %s, recorded at %v, is held %d times by the default sandbox and %d by b", id, v["provider"], got[0], got[1])
		}
	}
	for _, id := range ambiguous {
		if _, v := s.call(http.MethodGet, "/api/v1/withdrawals/"+id, nil); v["provider"] != "default" {
			t.Fatalf("an ambiguous withdrawal moved to %v", v["provider"])
		}
	}
	if w := s.wallet(); w.Available != money.FromReais(1000, 0)-money.Money(len(ids))*money.FromReais(10, 50) || w.Reserved != 0 {
		t.Fatalf("wallet %+v after %d withdrawals of 10.00 + 0.50", w, len(ids))
	}
	s.auditClean()
}
