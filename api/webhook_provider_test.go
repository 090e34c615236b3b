package api

import (
	"net/http"
	"testing"
)

func withWebhookToken(s *setup) { s.cfg.ProviderWebhookToken = "t0k3n" }

func TestProviderWebhookStoresEachEventOnce(t *testing.T) {
	e := newEnv(t, withWebhookToken)
	paid := `{"requestBody": {"transactionType": "RECEIVEPIX", "transactionId": "abc123", "external_id": "x",
		"amount": 15.00, "paymentType": "PIX", "status": "PAID", "dateApproval": "2026-11-22 10:00:00"}}`
	r := e.call(http.MethodPost, "/webhooks/provider/t0k3n", "", paid).expect(t, http.StatusOK)
	if r.get("duplicate") != false {
		t.Fatalf("first delivery: %s", r.raw)
	}
	for range 3 {
		r = e.call(http.MethodPost, "/webhooks/provider/t0k3n", "", paid).expect(t, http.StatusOK)
		if r.get("duplicate") != true {
			t.Fatalf("repeat delivery: %s", r.raw)
		}
	}
	// The same fields without the wrapper (some providers of the family) and
	// another status of the same transaction are further events.
	bare := `{"transactionType": "RECEIVEPIX", "transactionId": "abc123", "status": "EXPIRED"}`
	e.call(http.MethodPost, "/webhooks/provider/t0k3n", "", bare, "Content-Type", "text/plain").expect(t, http.StatusOK)

	if n := e.count(`SELECT count(*) FROM provider_events`); n != 2 {
		t.Fatalf("events stored = %d, want 2", n)
	}
	if n := e.count(`SELECT count(*) FROM outbox WHERE task_type = 'provider:event'`); n != 2 {
		t.Fatalf("outbox rows = %d, want one per stored event", n)
	}
	if n := e.count(`SELECT count(*) FROM ledger_transactions`); n != 0 {
		t.Fatalf("a notification moved money by itself: %d ledger transactions", n)
	}
}

func TestProviderWebhookRefusesWithoutStoring(t *testing.T) {
	e := newEnv(t, withWebhookToken)
	good := `{"transactionType": "PAYMENT", "transactionId": "p1", "status": "COMPLETED"}`
	e.call(http.MethodPost, "/webhooks/provider/wrong", "", good).expectError(t, http.StatusNotFound, codeNotFound)
	e.call(http.MethodPost, "/webhooks/provider/", "", good).expectError(t, http.StatusNotFound, codeNotFound)
	for name, body := range map[string]string{
		"not JSON":       `status=PAID`,
		"empty":          ``,
		"no status":      `{"transactionType": "PAYMENT", "transactionId": "p1"}`,
		"no transaction": `{"transactionType": "PAYMENT", "status": "COMPLETED"}`,
		"no type":        `{"transactionId": "p1", "status": "COMPLETED"}`,
		"array":          `[1, 2]`,
	} {
		r := e.call(http.MethodPost, "/webhooks/provider/t0k3n", "", body)
		if r.status != http.StatusBadRequest {
			t.Errorf("%s: status %d, want 400: %s", name, r.status, r.raw)
		}
	}
	if n := e.count(`SELECT count(*) FROM provider_events`); n != 0 {
		t.Fatalf("refused notifications were stored: %d", n)
	}
}

func TestProviderWebhookOffWithoutToken(t *testing.T) {
	e := newEnv(t)
	e.call(http.MethodPost, "/webhooks/provider/", "", `{}`).expectError(t, http.StatusNotFound, codeNotFound)
	e.call(http.MethodPost, "/webhooks/provider/anything", "", `{"transactionType": "PAYMENT", "transactionId": "p1", "status": "COMPLETED"}`).
		expectError(t, http.StatusNotFound, codeNotFound)
}
