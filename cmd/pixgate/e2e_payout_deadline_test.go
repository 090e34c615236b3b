package main

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/pixgate/pixgate/storage/storagetest"
)

// A payout past its deadline, end to end: under a 2 s payout deadline a
// withdrawal the provider cannot take (it is down) is due 2 s after its
// creation; then `pixgate payouts late` lists it, the integrator gets one
// LATE postback, and the worker's /metrics counts it late.
func TestE2ELatePayoutShowsInMetricsAndCLI(t *testing.T) {
	storagetest.Parallel(t, devStackConns)
	s := newDevStack(t)
	integrator := fmt.Sprint(s.integratorID)
	var in integratorView
	s.pg.json(&in, "integrator", "update", "--integrator", integrator, "--payout-deadline", "2s")
	if in.PayoutDeadline != "2s" {
		t.Fatalf("integrator after update: %+v", in)
	}
	s.credit("100.00")
	if code, v := s.control(http.MethodPost, "/sandbox/faults", map[string]any{"outage": true}); code != http.StatusOK {
		t.Fatalf("outage: %d %v", code, v)
	}
	code, v := s.call(http.MethodPost, "/api/v1/withdrawals", map[string]any{"amount": 10.00, "creditParty": creditParty("beltrano@example.com"),
		"external_id": "premio-1", "postbackUrl": s.receiver.URL + "/out"})
	if code != http.StatusCreated || v["due_at"] == nil {
		t.Fatalf("create withdrawal: %d %v", code, v)
	}
	id := v["id"].(string)

	var late struct {
		Late []latePayoutView `json:"late"`
	}
	s.eventually("the withdrawal listed late", 30*time.Second, func() bool {
		s.pg.json(&late, "payouts", "late", "--integrator", integrator, "--since", "1h")
		return len(late.Late) == 1
	})
	if l := late.Late[0]; l.ID != id || l.Status != "PROCESSING" || l.ExternalID == nil || *l.ExternalID != "premio-1" ||
		l.Amount.String() != "10.00" || l.IntegratorID != s.integratorID || l.LatenessSeconds < 0 {
		t.Fatalf("late payout %+v", l)
	}
	if code, out, errs := s.pg.run("payouts", "late", "--since", "1h"); code != 0 || !strings.Contains(out, id) || !strings.Contains(out, "premio-1") {
		t.Fatalf("payouts late: exit %d\n%s%s", code, out, errs)
	}

	lateBodies := func() (n int) {
		for _, d := range s.receiver.deliveries() {
			if strings.Contains(string(d.body), `"transactionType":"PAYMENT_DEADLINE"`) && strings.Contains(string(d.body), `"status":"LATE"`) {
				n++
			}
		}
		return n
	}
	s.eventually("the LATE postback", 30*time.Second, func() bool { return lateBodies() > 0 })

	want := fmt.Sprintf("pixgate_payouts_late{integrator=%q} 1", integrator)
	s.eventually("the late payout in /metrics", 45*time.Second, func() bool {
		resp, err := http.Get(s.monitor + "/metrics")
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return strings.Contains(string(b), "\n"+want+"\n")
	})
	time.Sleep(6 * time.Second) // another reconciler tick or so: the postback is written once
	if n := lateBodies(); n != 1 {
		t.Fatalf("%d LATE postbacks, want 1", n)
	}
	if s.status("withdrawals", id) != "PROCESSING" {
		t.Fatalf("the withdrawal is %s while the provider is down", s.status("withdrawals", id))
	}
}
