package main

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// count runs a counting query on the stack's database.
func (s *devStack) count(sql string, args ...any) int {
	s.t.Helper()
	var n int
	if err := s.db.Pool().QueryRow(context.Background(), sql, args...).Scan(&n); err != nil {
		s.t.Fatal(err)
	}
	return n
}

// notify posts a notification to PixGate's webhook as the provider would.
func (s *devStack) notify(body string) {
	s.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, s.api+"/webhooks/provider/"+s.webhookToken, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		s.t.Fatalf("webhook answered %d", resp.StatusCode)
	}
}

// The provider sends each notification 5 times, concurrently, out of order,
// plus a stale PENDING one after; PixGate's own copies are posted again on
// top, concurrently. One credit, one postback.
func TestE2EDuplicateOutOfOrderNotificationsCreditOnce(t *testing.T) {
	storagetest.Parallel(t, devStackConns)
	s := newDevStack(t)
	s.control(http.MethodPost, "/sandbox/faults", map[string]any{"duplicate_notifications": 5, "out_of_order_notifications": true})
	id, pixID := s.createCharge(40.00, nil)
	s.control(http.MethodPost, "/sandbox/charges/"+pixID+"/pay", nil)
	paid := fmt.Sprintf(`{"requestBody": {"transactionType": "RECEIVEPIX", "transactionId": %q, "status": "PAID", "amount": 40.00}}`, pixID)
	var wg sync.WaitGroup
	for range 5 {
		wg.Add(1)
		go func() { defer wg.Done(); s.notify(paid) }()
	}
	wg.Wait()
	s.eventually("charge PAID", time.Second, func() bool { return s.status("charges", id) == "PAID" })
	s.eventually("every notification processed", 3*time.Second, func() bool {
		return s.count(`SELECT count(*) FROM provider_events WHERE processed_at IS NULL`) == 0 &&
			s.count(`SELECT count(*) FROM provider_events`) >= 2
	})
	if w := s.wallet(); w.Available != money.FromReais(39, 40) {
		t.Fatalf("wallet available = %v, want one credit of 39.40", w.Available)
	}
	if n := s.count(`SELECT count(*) FROM ledger_transactions WHERE kind = 'charge.paid'`); n != 1 {
		t.Fatalf("charge.paid postings = %d, want 1", n)
	}
	s.eventually("postback received", time.Second, func() bool { return len(s.receiver.deliveries()) >= 1 })
	time.Sleep(300 * time.Millisecond)
	if n := len(s.receiver.deliveries()); n != 1 {
		t.Fatalf("postbacks = %d, want 1", n)
	}
	s.auditClean()
}

// A notification saying an unpaid charge was paid is checked with the
// provider, which says PENDING: nothing is credited.
func TestE2EForgedNotificationCreditsNothing(t *testing.T) {
	storagetest.Parallel(t, devStackConns)
	s := newDevStack(t)
	id, pixID := s.createCharge(500.00, nil)
	s.notify(fmt.Sprintf(`{"requestBody": {"transactionType": "RECEIVEPIX", "transactionId": %q,
		"external_id": %q, "status": "PAID", "amount": 500.00, "dateApproval": "2026-11-22 10:00:00"}}`, pixID, id))
	s.notify(`{"transactionType": "RECEIVEPIX", "transactionId": "00000000000000000000000000000000", "status": "PAID", "amount": 9999.00}`)
	s.eventually("forged notifications processed", 3*time.Second, func() bool {
		return s.count(`SELECT count(*) FROM provider_events WHERE processed_at IS NOT NULL`) == 2
	})
	if st := s.status("charges", id); st != "PENDING" {
		t.Fatalf("charge status = %s, want PENDING", st)
	}
	if w := s.wallet(); w.Available != 0 {
		t.Fatalf("wallet available = %v after forged notifications, want 0", w.Available)
	}
	if n := s.count(`SELECT count(*) FROM ledger_transactions WHERE kind = 'charge.paid'`); n != 0 {
		t.Fatalf("charge.paid postings = %d, want 0", n)
	}
	s.auditClean()
}

// The provider's notification never arrives: the reconciler asks the
// provider and completes the withdrawal.
func TestE2ELostNotificationReconciled(t *testing.T) {
	storagetest.Parallel(t, devStackConns)
	s := newDevStack(t, "PIXGATE_RECONCILE_INTERVAL", "200ms", "PIXGATE_RECONCILE_STALE_AFTER", "500ms")
	s.credit("30.00")
	s.control(http.MethodPost, "/sandbox/faults", map[string]any{"drop_notifications": true})
	code, v := s.call(http.MethodPost, "/api/v1/withdrawals", map[string]any{"amount": 10.00, "creditParty": creditParty("beltrano@example.com")})
	if code != http.StatusCreated {
		t.Fatalf("create withdrawal: %d %v", code, v)
	}
	id := v["id"].(string)
	s.eventually("withdrawal COMPLETED by the reconciler", 5*time.Second, func() bool { return s.status("withdrawals", id) == "COMPLETED" })
	if n := s.count(`SELECT count(*) FROM provider_events`); n != 0 {
		t.Fatalf("%d notifications arrived; the test needs none", n)
	}
	if w := s.wallet(); w.Available != money.FromReais(19, 50) || w.Reserved != 0 {
		t.Fatalf("wallet = %+v, want available 19.50, reserved 0", w)
	}
	s.auditClean()
}

// A receiver that fails three times and then answers 2xx: delivered, four
// attempts recorded, the same signed body each time.
func TestE2EPostbackRetriedUntilDelivered(t *testing.T) {
	storagetest.Parallel(t, devStackConns)
	s := newDevStack(t)
	s.receiver.failNext(3)
	id, pixID := s.createCharge(10.00, nil)
	s.control(http.MethodPost, "/sandbox/charges/"+pixID+"/pay", nil)
	s.eventually("postback delivered", 5*time.Second, func() bool {
		return s.count(`SELECT count(*) FROM postbacks WHERE resource_id = $1 AND status = 'DELIVERED'`, id) == 1
	})
	if n := s.count(`SELECT count(*) FROM postback_attempts a JOIN postbacks p ON p.id = a.postback_id WHERE p.resource_id = $1`, id); n != 4 {
		t.Fatalf("attempts recorded = %d, want 4", n)
	}
	got := s.receiver.verified(t, s.webhookSecret)
	if len(got) != 4 {
		t.Fatalf("receiver saw %d requests, want 4", len(got))
	}
	first := s.receiver.deliveries()[0]
	for _, d := range s.receiver.deliveries()[1:] {
		if string(d.body) != string(first.body) || d.header.Get("webhook-id") != first.header.Get("webhook-id") {
			t.Fatal("retries must carry the same body and webhook-id")
		}
	}
	code, out, _ := s.pg.run("postbacks", "list", "--integrator", fmt.Sprint(s.integratorID))
	if code != 0 || !strings.Contains(out, "DELIVERED") {
		t.Fatalf("pixgate postbacks list: %d\n%s", code, out)
	}
}

// Without private addresses allowed, postback URLs on loopback or the cloud
// metadata address are refused when given, in every spelling the dialer
// would understand, and nothing is created.
func TestE2EPrivatePostbackURLRefused(t *testing.T) {
	storagetest.Parallel(t, devStackConns)
	s := newDevStack(t, "PIXGATE_POSTBACK_ALLOW_PRIVATE", "false")
	s.credit("10.00")
	for _, u := range []string{"http://127.0.0.1:9/hook", "http://169.254.169.254/latest/meta-data/",
		"http://0/", "http://127.1:9/", "http://2130706433/", "http://0x7f000001/", "http://0177.0.0.1/",
		"http://１２７.０.０.１/", "http://127。0。0。1/", "http://metadata.google.internal/computeMetadata/v1/"} {
		code, v := s.call(http.MethodPost, "/api/v1/charges", map[string]any{"amount": 5, "payer": payer, "postbackUrl": u})
		if errs, _ := v["errors"].(map[string]any); code != http.StatusUnprocessableEntity || errs["postbackUrl"] == nil {
			t.Fatalf("charge with postbackUrl %s: %d %v", u, code, v)
		}
		code, v = s.call(http.MethodPost, "/api/v1/withdrawals", map[string]any{"amount": 5, "creditParty": creditParty("a@b.example"), "postbackUrl": u})
		if code != http.StatusUnprocessableEntity {
			t.Fatalf("withdrawal with postbackUrl %s: %d %v", u, code, v)
		}
	}
	if n := s.count(`SELECT (SELECT count(*) FROM charges) + (SELECT count(*) FROM withdrawals)`); n != 0 {
		t.Fatalf("refused requests created %d records", n)
	}
	if w := s.wallet(); w.Available != money.FromReais(10, 0) {
		t.Fatalf("wallet changed: %+v", w)
	}
	s.auditClean()
}
