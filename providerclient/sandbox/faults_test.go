package sandbox

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient/contract"
)

func TestRouteFaults(t *testing.T) {
	tests := []struct {
		name   string
		faults Faults
		path   string
		status int
	}{
		{"outage", Faults{Outage: true}, "/v2/pix/payment", 503},
		{"outage on token too", Faults{Outage: true}, "/v2/oauth/token", 503},
		{"errors", Faults{ErrorRate: 1}, "/v2/pix/payment", 500},
		{"outage on other routes only", Faults{Outage: true, Routes: []string{"/v2/balance"}}, "/v2/pix/payment", 200},
		{"latency", Faults{Latency: 30 * time.Millisecond}, "/v2/pix/payment", 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, Config{})
			e.sb.SetFaults(tt.faults)
			start := time.Now()
			status, body := e.post(tt.path, validPayment("x"))
			if status != tt.status {
				t.Fatalf("status %d, want %d (%v)", status, tt.status, body)
			}
			if status >= 500 && (num(body["statusCode"]) != strconv.Itoa(status) || body["message"] == "") {
				t.Fatalf("error shape %v", body)
			}
			if status >= 500 && tt.path == "/v2/pix/payment" && e.sb.Stats().PaymentsCreated != 0 {
				t.Fatal("a refused request created a payment")
			}
			if elapsed := time.Since(start); elapsed < tt.faults.Latency {
				t.Fatalf("answered in %v, latency %v", elapsed, tt.faults.Latency)
			}
			// Control endpoints are never faulted.
			if status, _ := e.call("GET /sandbox/stats", "", nil, nil); status != 200 {
				t.Fatalf("stats under faults: %d", status)
			}
		})
	}
}

// The timeout fault processes the request and never answers it.
func TestTimeoutFaultProcessesAndHolds(t *testing.T) {
	e := newEnv(t, Config{})
	e.sb.SetFaults(Faults{TimeoutRate: 1, Routes: []string{"/v2/pix/payment"}})
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, e.srv.URL+"/v2/pix/payment", jsonBody(t, validPayment("lost")))
	req.Header.Set("Authorization", "Bearer "+e.token)
	resp, err := e.srv.Client().Do(req)
	if err == nil {
		resp.Body.Close()
		t.Fatalf("got an answer %d", resp.StatusCode)
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want a client timeout", err)
	}
	if got := e.sb.Stats().PaymentsCreated; got != 1 {
		t.Fatalf("payments created %d, want 1: the request must be processed", got)
	}
	e.sb.ResetFaults()
	_, body := e.post("/v2/pix/payment", validPayment("lost"))
	if body["external_id"] != "lost" || body["transactionId"] == nil || e.sb.Stats().PaymentsCreated != 1 {
		t.Fatalf("replay %v created a second payment", body)
	}
}

func TestManualSettlementControl(t *testing.T) {
	e := newEnv(t, Config{})
	status, faults := e.call("/sandbox/faults", "", map[string]any{"auto_settle": false}, nil)
	if status != 200 || faults["auto_settle"] != false {
		t.Fatalf("set faults: %d %v", status, faults)
	}
	_, a := e.post("/v2/pix/payment", validPayment("a"))
	_, b := e.post("/v2/pix/payment", validPayment("b"))
	time.Sleep(60 * time.Millisecond) // three settle delays: nothing may settle on its own
	for _, p := range []map[string]any{a, b} {
		if tx, _ := e.sb.Transaction(p["transactionId"].(string)); tx.Status != contract.StatusProcessing {
			t.Fatalf("settled without auto_settle: %+v", tx)
		}
	}
	if status, body := e.call("/sandbox/transactions/"+a["transactionId"].(string)+"/settle", "", nil, nil); status != 200 || body["status"] != "COMPLETED" {
		t.Fatalf("settle: %d %v", status, body)
	}
	if status, body := e.call("/sandbox/transactions/"+b["transactionId"].(string)+"/fail", "", map[string]any{"reason": "conta encerrada"}, nil); status != 200 || body["status"] != "FAILED" || body["failureReason"] != "conta encerrada" {
		t.Fatalf("fail: %d %v", status, body)
	}
	if status, _ := e.call("/sandbox/transactions/"+a["transactionId"].(string)+"/fail", "", nil, nil); status != 409 {
		t.Fatalf("failing a completed payment: %d, want 409", status)
	}
	if status, _ := e.call("/sandbox/transactions/nope/settle", "", nil, nil); status != 404 {
		t.Fatalf("settling an unknown id: %d, want 404", status)
	}
	if status, body := e.call("GET /sandbox/transactions/"+b["transactionId"].(string), "", nil, nil); status != 200 || body["transactionType"] != "PAYMENT" {
		t.Fatalf("inspect: %d %v", status, body)
	}
}

func TestFaultsEndpoint(t *testing.T) {
	e := newEnv(t, Config{})
	status, got := e.call("/sandbox/faults", "", map[string]any{
		"latency_ms": 5, "error_rate": 0.25, "timeout_rate": 0.5, "outage": true, "duplicate_notifications": 2,
		"out_of_order_notifications": true, "drop_notifications": true, "fail_keys": []string{"a@b.com"},
		"settle_delay_ms": 10, "routes": []string{"/v2/balance"},
	}, nil)
	want := Faults{Latency: 5 * time.Millisecond, ErrorRate: 0.25, TimeoutRate: 0.5, Outage: true, DuplicateNotifications: 2,
		OutOfOrderNotifications: true, DropNotifications: true, FailKeys: []string{"a@b.com"},
		SettleDelay: 10 * time.Millisecond, Routes: []string{"/v2/balance"}}
	f := e.sb.Faults()
	if status != 200 || got["auto_settle"] != true || f.ManualSettle || f.Latency != want.Latency || f.ErrorRate != want.ErrorRate ||
		f.TimeoutRate != want.TimeoutRate || !f.Outage || f.DuplicateNotifications != 2 || !f.OutOfOrderNotifications ||
		!f.DropNotifications || f.FailKeys[0] != "a@b.com" || f.SettleDelay != want.SettleDelay || f.Routes[0] != "/v2/balance" {
		t.Fatalf("faults %d %v → %+v", status, got, f)
	}
	for _, bad := range []map[string]any{{"error_rate": 1.5}, {"timeout_rate": -0.1}, {"latency_ms": -1}, {"duplicate_notifications": 11}} {
		if status, _ := e.call("/sandbox/faults", "", bad, nil); status != 422 {
			t.Fatalf("%v: status %d, want 422", bad, status)
		}
	}
	if status, _ := e.call("/sandbox/faults", "", map[string]any{"outgae": true}, nil); status != 400 {
		t.Fatalf("unknown field: status %d, want 400", status)
	}
	if status, got := e.call("DELETE /sandbox/faults", "", nil, nil); status != 200 || got["outage"] != false {
		t.Fatalf("delete: %d %v", status, got)
	}
	if status, got := e.call("GET /sandbox/faults", "", nil, nil); status != 200 || got["error_rate"] == nil {
		t.Fatalf("get: %d %v", status, got)
	}
}

func TestStatsAndBalanceEndpoints(t *testing.T) {
	e := newEnv(t, Config{InitialBalance: 50_000})
	e.post("/v2/balance", nil)
	_, bal := e.post("/v2/balance", nil)
	if num(bal["balance"]) != "500.00" || num(bal["available"]) != "500.00" || num(bal["pending"]) != "0.00" || bal["currency"] != "BRL" {
		t.Fatalf("balance %v", bal)
	}
	_, stats := e.call("GET /sandbox/stats", "", nil, nil)
	req := stats["requests"].(map[string]any)
	if num(req["/v2/balance"]) != "2" || num(req["/v2/oauth/token"]) != "1" || num(stats["tokens_issued"]) != "1" {
		t.Fatalf("stats %v", stats)
	}
	if status, body := e.post("/v2/consult-transaction", map[string]any{"pix_id": "unknown"}); status != 404 || body["message"] == "" {
		t.Fatalf("consult unknown: %d %v", status, body)
	}
	if status, _ := e.post("/v2/consult-transaction", map[string]any{}); status != 422 {
		t.Fatalf("consult without pix_id: %d", status)
	}
	if status, _ := e.post("/v2/nothing", nil); status != 404 {
		t.Fatalf("unknown route: %d", status)
	}
	if status, _ := e.call("DELETE /sandbox/stats", "", nil, nil); status != 200 {
		t.Fatalf("reset stats: %d", status)
	}
	if s := e.sb.Stats(); len(s.Requests) != 0 || s.TokensIssued != 0 {
		t.Fatalf("after reset %+v", s)
	}
}

// With a fault seed, the same requests meet the same faults on every run.
func TestSeededFaultsRepeat(t *testing.T) {
	statuses := func() []int {
		e := newEnv(t, Config{FaultSeed: 7})
		e.sb.SetFaults(Faults{ErrorRate: 0.5, Routes: []string{"/v2/balance"}})
		var got []int
		for range 40 {
			status, _ := e.post("/v2/balance", nil)
			got = append(got, status)
		}
		return got
	}
	first, second := statuses(), statuses()
	if !slices.Equal(first, second) {
		t.Fatalf("same seed, different faults:\n%v\n%v", first, second)
	}
	if failed := countOf(first, 500); failed == 0 || failed == len(first) {
		t.Fatalf("error rate 0.5 failed %d of %d requests", failed, len(first))
	}
}

func countOf(xs []int, x int) (n int) {
	for _, v := range xs {
		if v == x {
			n++
		}
	}
	return n
}
