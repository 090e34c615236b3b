package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient/pix/brcode/brcodetest"
	"github.com/pixgate/pixgate/storage/ledger"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/storagetest"
)

var payer = map[string]any{"name": "Fulano de Tal", "document": "52998224725", "email": "fulano@example.com"}

func creditParty(key string) map[string]any {
	return map[string]any{"name": "Beltrano", "keyType": "EMAIL", "key": key, "taxId": "52998224725"}
}

// createCharge creates a charge and returns its id and pix_id.
func (s *devStack) createCharge(amount float64, extra map[string]any) (id, pixID string) {
	s.t.Helper()
	body := map[string]any{"amount": amount, "payer": payer, "postbackUrl": s.receiver.URL + "/pix"}
	for k, v := range extra {
		body[k] = v
	}
	code, v := s.call(http.MethodPost, "/api/v1/charges", body)
	if code != http.StatusCreated {
		s.t.Fatalf("create charge: %d %v", code, v)
	}
	return v["id"].(string), v["pix_id"].(string)
}

// A new integrator's first charge, end to end: issued with a valid BR Code,
// paid through the sandbox, PAID within a second, the net in the wallet, the
// fee in the platform account, one signed postback received.
func TestE2EChargePaid(t *testing.T) {
	storagetest.Parallel(t, devStackConns)
	s := newDevStack(t)
	id, pixID := s.createCharge(100.00, map[string]any{"external_id": "order-1"})
	_, v := s.call(http.MethodGet, "/api/v1/charges/order-1", nil)
	if v["id"] != id || v["status"] != "PENDING" {
		t.Fatalf("by external_id: %v", v)
	}
	code, err := brcodetest.Parse(v["qrcode"].(string))
	if err != nil || code.Amount != money.FromReais(100, 0) {
		t.Fatalf("BR Code %q: %+v, %v", v["qrcode"], code, err)
	}
	feesBefore, _ := s.db.PlatformBalance(context.Background(), ledger.Fees)

	c, paid := s.control(http.MethodPost, "/sandbox/charges/"+pixID+"/pay", nil)
	if c != http.StatusOK {
		t.Fatalf("pay: %d %v", c, paid)
	}
	took := s.eventually("charge PAID", time.Second, func() bool { return s.status("charges", id) == "PAID" })
	e2e, _ := paid["endToEndId"].(string)
	if _, v := s.call(http.MethodGet, "/api/v1/charges/"+id, nil); e2e == "" || v["end_to_end_id"] != e2e {
		t.Fatalf("paid charge end_to_end_id = %v, the provider's is %q", v["end_to_end_id"], e2e)
	}
	t.Logf("PAID %v after the payer paid", took)
	if w := s.wallet(); w.Available != money.FromReais(98, 50) {
		t.Fatalf("wallet available = %v, want 98.50 (100.00 − 1.5%%)", w.Available)
	}
	if fees, _ := s.db.PlatformBalance(context.Background(), ledger.Fees); fees-feesBefore != 150 {
		t.Fatalf("platform fees grew by %v, want 1.50", fees-feesBefore)
	}
	s.eventually("postback received", time.Second, func() bool { return len(s.receiver.deliveries()) == 1 })
	time.Sleep(300 * time.Millisecond) // a second postback would arrive by now
	bodies := s.receiver.verified(t, s.webhookSecret)
	if len(bodies) != 1 {
		t.Fatalf("postbacks = %d, want exactly 1", len(bodies))
	}
	b := bodies[0]
	if b["transactionType"] != "RECEIVEPIX" || b["status"] != "PAID" || b["transactionId"] != pixID ||
		b["external_id"] != "order-1" || b["amount"] != json.Number("100.00") || b["endToEndId"] != e2e {
		t.Fatalf("postback body = %v", b)
	}
	s.conforms("/api/v1/charges/" + id)
	s.postbacksConform("charge")
	s.auditClean()
	s.metricsShow(
		`pixgate_http_requests_total{method="POST",route="/api/v1/charges",status="201"} 1`,
		`pixgate_provider_calls_total{op="create charge",provider="default",result="ok"} 1`,
		`pixgate_provider_events_total{outcome="applied"} 1`,
		`pixgate_tasks_total{result="ok",type="provider:event"}`,
		`pixgate_postback_attempts_total{outcome="delivered"} 1`,
		`pixgate_provider_breaker_state{lane="read",provider="default"} 0`,
		`pixgate_provider_eliminated{provider="default"} 0`,
		`pixgate_outbox_lag_seconds`,
		`pixgate_sql_statements_total `,
		`asynq_tasks_processed_total`,
	)
}

// metricsShow checks that the worker's /metrics (one registry for the whole
// dev process) carries each line prefix.
func (s *devStack) metricsShow(prefixes ...string) {
	s.t.Helper()
	resp, err := http.Get(s.monitor + "/metrics")
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	for _, p := range prefixes {
		if !strings.Contains(string(b), "\n"+p) {
			s.t.Errorf("/metrics lacks %q (status %d: %.300s)", p, resp.StatusCode, b)
		}
	}
}

// A withdrawal, end to end: reserved at once (available drops by amount +
// fee), sent, settled by the provider, COMPLETED with one signed postback.
func TestE2EWithdrawalCompleted(t *testing.T) {
	storagetest.Parallel(t, devStackConns)
	s := newDevStack(t)
	s.credit("100.00")
	code, v := s.call(http.MethodPost, "/api/v1/withdrawals", map[string]any{
		"amount": 10.00, "creditParty": creditParty("beltrano@example.com"), "postbackUrl": s.receiver.URL + "/out"})
	if code != http.StatusCreated {
		t.Fatalf("create withdrawal: %d %v", code, v)
	}
	id := v["id"].(string)
	if w := s.wallet(); w.Available != money.FromReais(89, 50) || w.Reserved != money.FromReais(10, 50) {
		t.Fatalf("after reservation: %+v, want available 89.50, reserved 10.50", w)
	}
	s.eventually("withdrawal COMPLETED", 3*time.Second, func() bool { return s.status("withdrawals", id) == "COMPLETED" })
	_, v = s.call(http.MethodGet, "/api/v1/withdrawals/"+id, nil)
	if v["pix_id"] == nil || v["end_to_end_id"] == nil {
		t.Fatalf("completed withdrawal lacks provider ids: %v", v)
	}
	if w := s.wallet(); w.Available != money.FromReais(89, 50) || w.Reserved != 0 {
		t.Fatalf("after settlement: %+v, want available 89.50, reserved 0", w)
	}
	s.eventually("postback received", time.Second, func() bool { return len(s.receiver.deliveries()) == 1 })
	b := s.receiver.verified(t, s.webhookSecret)[0]
	if b["transactionType"] != "PAYMENT" || b["status"] != "COMPLETED" {
		t.Fatalf("postback body = %v", b)
	}
	s.conforms("/api/v1/withdrawals/" + id)
	s.postbacksConform("withdrawal")
	s.auditClean()
}

// A withdrawal to a key the provider fails: FAILED, the reservation back in
// the available balance, a FAILED postback.
func TestE2EWithdrawalFailedReturnsReservation(t *testing.T) {
	storagetest.Parallel(t, devStackConns)
	s := newDevStack(t)
	s.credit("50.00")
	s.control(http.MethodPost, "/sandbox/faults", map[string]any{"fail_keys": []string{"falha@example.com"}})
	code, v := s.call(http.MethodPost, "/api/v1/withdrawals", map[string]any{
		"amount": 20.00, "creditParty": creditParty("falha@example.com"), "postbackUrl": s.receiver.URL + "/out"})
	if code != http.StatusCreated {
		t.Fatalf("create withdrawal: %d %v", code, v)
	}
	id := v["id"].(string)
	s.eventually("withdrawal FAILED", 3*time.Second, func() bool { return s.status("withdrawals", id) == "FAILED" })
	if w := s.wallet(); w.Available != money.FromReais(50, 0) || w.Reserved != 0 {
		t.Fatalf("after failure: %+v, want the whole 50.00 available again", w)
	}
	// Integrators read the provider's reason alone, no prefixes.
	const reason = "the receiving institution rejected the PIX key"
	if _, v := s.call(http.MethodGet, "/api/v1/withdrawals/"+id, nil); v["failure_reason"] != reason {
		t.Fatalf("failure_reason = %q, want %q", v["failure_reason"], reason)
	}
	s.eventually("postback received", time.Second, func() bool { return len(s.receiver.deliveries()) == 1 })
	if b := s.receiver.verified(t, s.webhookSecret)[0]; b["status"] != "FAILED" || b["failure_reason"] != reason {
		t.Fatalf("postback body = %v", b)
	}
	s.conforms("/api/v1/withdrawals/" + id)
	s.postbacksConform("withdrawal")
	s.auditClean()
}
