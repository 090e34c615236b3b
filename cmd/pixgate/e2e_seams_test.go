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

// An efi provider first in the route makes sends and loses the answers,
// then refuses sends (as duplicates, its reads failing), then refuses
// everything (an outage, its breaker opening): every withdrawal ends paid
// at exactly one provider, the one PixGate records, or FAILED with no
// provider holding it; each provider's float keeps equal to its balance
// (the difference of provider balance does not move), and the audit is
// clean.
func TestE2EWithdrawalsPaidOnceWhenAnEfiProviderLosesAnswersThenRefuses(t *testing.T) {
	storagetest.Parallel(t, devStackConns)
	s := newDevStack(t, "PIXGATE_PROVIDER_TIMEOUT", "2s", "PIXGATE_V1_RATE_PER_MINUTE", "-1",
		"PIXGATE_RECONCILE_STALE_AFTER", "3s", "PIXGATE_RECONCILE_INTERVAL", "1s")
	e := s.addSandbox("e", sandbox.ContractEfi)
	s.pg.json(&routeView{}, "route", "set", "--integrator", fmt.Sprint(s.integratorID), "--charges", "default", "--withdrawals", "e,default")
	s.credit("1000.00")
	op := s.operator()
	differences := func() map[string]money.Money {
		t.Helper()
		var out struct{ Providers []floatView }
		op.json(&out, "provider", "balance")
		d := map[string]money.Money{}
		for _, p := range out.Providers {
			if p.Difference == nil {
				t.Fatalf("provider balance: %+v", p)
			}
			d[p.Provider] = *p.Difference
		}
		return d
	}
	before := differences()
	fault := func(f map[string]any) {
		t.Helper()
		if code, v := doJSON(t, http.MethodPost, e.control+"/sandbox/faults", "", f); code != http.StatusOK {
			t.Fatalf("faults %v: %d %v", f, code, v)
		}
	}
	var ids []string
	withdraw := func(n int, key string) (made []string) {
		t.Helper()
		for range n {
			code, v := s.call(http.MethodPost, "/api/v1/withdrawals", map[string]any{"amount": 7.04, "creditParty": creditParty(key)})
			if code != http.StatusCreated {
				t.Fatalf("create withdrawal: %d %v", code, v)
			}
			made = append(made, v["id"].(string))
		}
		ids = append(ids, made...)
		return made
	}
	held := func(control string) map[string]int {
		t.Helper()
		_, v := doJSON(t, http.MethodGet, control+"/sandbox/transactions?type=PAYMENT", "", nil)
		out := map[string]int{}
		for _, tx := range v["transactions"].([]any) {
			out[strings.ReplaceAll(fmt.Sprint(tx.(map[string]any)["external_id"]), "-", "")]++
		}
		return out
	}

	// Sends made, answers lost.
	fault(map[string]any{"timeout_rate": 1.0, "routes": []string{"/v3/gn/pix/{idEnvio}"}})
	lost := withdraw(4, "beltrano@example.com")
	s.eventually("e made the sends whose answers it lost", 30*time.Second, func() bool {
		h := held(e.control)
		for _, id := range lost {
			if h[strings.ReplaceAll(id, "-", "")] == 0 {
				return false
			}
		}
		return true
	})
	// Resends refused as duplicates, reads failing: nothing proves the
	// sends absent, so nothing moves and nothing fails.
	fault(map[string]any{"error_rate": 1.0, "routes": []string{"/v2/gn/pix/enviados/id-envio/{idEnvio}"}})
	time.Sleep(4 * time.Second)
	// Then every call refused: the breaker opens; new withdrawals move to
	// the default provider, those e may hold stay.
	fault(map[string]any{"outage": true})
	withdraw(4, "beltrano@example.com")
	withdraw(2, "inexistente@example.com") // refused everywhere: FAILED, held by none
	time.Sleep(4 * time.Second)
	if code, v := doJSON(t, http.MethodDelete, e.control+"/sandbox/faults", "", nil); code != http.StatusOK {
		t.Fatalf("e healthy again: %d %v", code, v)
	}
	for _, id := range ids {
		s.eventually("withdrawal "+id+" final", 90*time.Second, func() bool {
			st := s.status("withdrawals", id)
			return st == "COMPLETED" || st == "FAILED"
		})
	}

	atE, atDefault := held(e.control), held(s.sandbox)
	for _, id := range ids {
		_, v := s.call(http.MethodGet, "/api/v1/withdrawals/"+id, nil)
		key := strings.ReplaceAll(id, "-", "")
		got := [2]int{atE[key], atDefault[key]}
		switch {
		case v["status"] == "FAILED" && got != [2]int{}:
			t.Errorf("withdrawal %s FAILED while held %d times by e and %d by the default", id, got[0], got[1])
		case v["status"] == "COMPLETED" && got != map[any][2]int{"e": {1, 0}, "default": {0, 1}}[v["provider"]]:
			t.Errorf("withdrawal %s COMPLETED at %v is held %d times by e and %d by the default", id, v["provider"], got[0], got[1])
		}
	}
	for _, id := range lost {
		if _, v := s.call(http.MethodGet, "/api/v1/withdrawals/"+id, nil); v["status"] != "COMPLETED" || v["provider"] != "e" {
			t.Errorf("withdrawal %s whose answer e lost ended %v at %v, want COMPLETED at e", id, v["status"], v["provider"])
		}
	}
	if after := differences(); after["e"] != before["e"] || after["default"] != before["default"] {
		t.Errorf("provider balance less float: %v before, %v after", before, after)
	}
	s.auditClean()
}
