package api

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
)

func withWebhookToken(s *setup) { s.cfg.ProviderWebhookToken = "t0k3n" }

// A notification is stored with the task that has a worker confirm it;
// a copy of a claim that waits in the queue is acknowledged without a row
// or task of its own (the queued one's consult answers for both), and so is
// a copy of a claim confirmed and applied. When copies are stored anyway
// (an early or forged copy consulted first) is the worker's business, see
// worker tests.
func TestProviderWebhookStoresOneEventPerQueuedClaim(t *testing.T) {
	e := newEnv(t, withWebhookToken)
	paid := `{"requestBody": {"transactionType": "RECEIVEPIX", "transactionId": "abc123", "external_id": "x",
		"amount": 15.00, "paymentType": "PIX", "status": "PAID", "dateApproval": "2026-11-22 10:00:00"}}`
	for i := range 3 {
		r := e.call(http.MethodPost, "/webhooks/provider/t0k3n", "", paid).expect(t, http.StatusOK)
		if r.get("duplicate") != (i > 0) {
			t.Fatalf("copy %d of a queued claim: %s", i, r.raw)
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

	// Once a worker confirmed and applied the PAID claim, copies are duplicates.
	if _, err := e.db.Pool().Exec(context.Background(), `UPDATE provider_events SET picked_at = now(), processed_at = now(), confirmed = true
		WHERE id = (SELECT min(id) FROM provider_events WHERE status = 'PAID')`); err != nil {
		t.Fatal(err)
	}
	r := e.call(http.MethodPost, "/webhooks/provider/t0k3n", "", paid).expect(t, http.StatusOK)
	if r.get("duplicate") != true {
		t.Fatalf("copy of a confirmed claim: %s", r.raw)
	}
	if n := e.count(`SELECT count(*) FROM provider_events`); n != 2 {
		t.Fatalf("a duplicate was stored: %d events", n)
	}
}

// A storm of one notification, three hundred times at once, is one event, one
// outbox row and so one task and one consult; every copy is answered 200.
// The copies all arrive together, the first among them: no copy was
// stored before the storm.
func TestProviderWebhookStormIsOneEvent(t *testing.T) {
	e := newEnv(t, withWebhookToken)
	pending := `{"requestBody": {"transactionType": "RECEIVEPIX", "transactionId": "storm1", "status": "PENDING"}}`
	var wg sync.WaitGroup
	var mu sync.Mutex
	statuses := map[int]int{}
	start := make(chan struct{})
	for range 300 {
		wg.Go(func() {
			<-start
			r := e.call(http.MethodPost, "/webhooks/provider/t0k3n", "", pending)
			mu.Lock()
			statuses[r.status]++
			mu.Unlock()
		})
	}
	close(start)
	wg.Wait()
	if statuses[http.StatusOK] != 300 {
		t.Fatalf("answers %v, want 300 × 200", statuses)
	}
	if n := e.count(`SELECT count(*) FROM provider_events`); n != 1 {
		t.Fatalf("events stored = %d, want 1", n)
	}
	if n := e.count(`SELECT count(*) FROM outbox WHERE task_type = 'provider:event'`); n != 1 {
		t.Fatalf("outbox rows = %d, want 1", n)
	}
}

// A genuine notification whose other fields hold text jsonb or Go would
// refuse or alter (NUL, a Latin-1 name, a lone surrogate, an exponent no
// float holds) is accepted and kept byte for byte: refused, the provider
// would retry it forever and it would be lost.
func TestProviderWebhookKeepsWhatTheProviderSent(t *testing.T) {
	e := newEnv(t, withWebhookToken)
	bodies := []string{
		`{"requestBody": {"transactionType": "RECEIVEPIX", "transactionId": "t1", "status": "PAID", "creditParty": {"name": "a\u0000b"}}}`,
		`{"requestBody": {"transactionType": "RECEIVEPIX", "transactionId": "t2", "status": "PAID", "creditParty": {"name": "Jos` + "\xe9" + `"}}}`,
		`{"transactionType": "PAYMENT", "transactionId": "t3", "status": "COMPLETED", "description": "\ud800"}`,
		`{"transactionType": "PAYMENT", "transactionId": "t4", "status": "FAILED", "amount": 1e-100000}`,
		`  {"transactionType": "refund", "transactionId": 12345, "status": "completed"}` + "\n",
	}
	for _, b := range bodies {
		r := e.call(http.MethodPost, "/webhooks/provider/t0k3n", "", b)
		if r.status != http.StatusOK {
			t.Fatalf("%.70q: %d %s", b, r.status, r.raw)
		}
	}
	rows, err := e.db.Pool().Query(context.Background(), `SELECT transaction_type, transaction_id, status, payload FROM provider_events ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	i := 0
	for ; rows.Next(); i++ {
		var typ, id, status string
		var payload []byte
		if err := rows.Scan(&typ, &id, &status, &payload); err != nil {
			t.Fatal(err)
		}
		if string(payload) != bodies[i] {
			t.Errorf("event %d payload %q, want the body as sent %q", i, payload, bodies[i])
		}
		if i == 4 && (typ != "refund" || id != "12345" || status != "COMPLETED") {
			t.Errorf("claim read as %s %s %s", typ, id, status)
		}
	}
	if i != len(bodies) {
		t.Fatalf("%d events stored, want %d", i, len(bodies))
	}
}

func TestProviderWebhookRefusesWithoutStoring(t *testing.T) {
	e := newEnv(t, withWebhookToken)
	good := `{"transactionType": "PAYMENT", "transactionId": "p1", "status": "COMPLETED"}`
	e.call(http.MethodPost, "/webhooks/provider/wrong", "", good).expectError(t, http.StatusNotFound, codeNotFound)
	e.call(http.MethodPost, "/webhooks/provider/", "", good).expectError(t, http.StatusNotFound, codeNotFound)
	for name, c := range map[string]struct{ body, field string }{
		"not JSON":          {`status=PAID`, ""},
		"empty":             {``, ""},
		"array":             {`[1, 2]`, ""},
		"cut short":         {`{"transactionType": "PAYMENT", "transactionId": "p1"`, ""},
		"no status":         {`{"transactionType": "PAYMENT", "transactionId": "p1"}`, "status"},
		"no transaction":    {`{"transactionType": "PAYMENT", "status": "COMPLETED"}`, "transactionId"},
		"no type":           {`{"transactionId": "p1", "status": "COMPLETED"}`, "transactionType"},
		"id object":         {`{"transactionType": "PAYMENT", "transactionId": {"a": 1}, "status": "COMPLETED"}`, "transactionId"},
		"status array":      {`{"transactionType": "PAYMENT", "transactionId": "p1", "status": ["PAID"]}`, "status"},
		"type bool":         {`{"transactionType": true, "transactionId": "p1", "status": "PAID"}`, "transactionType"},
		"wrapper string":    {`{"requestBody": "x", "transactionType": "PAYMENT", "transactionId": "p1", "status": "PAID"}`, "requestBody"},
		"id with NUL":       {`{"transactionType": "PAYMENT", "transactionId": "p\u00001", "status": "PAID"}`, "transactionId"},
		"id in Latin-1":     {"{\"transactionType\": \"PAYMENT\", \"transactionId\": \"p\xe9\", \"status\": \"PAID\"}", "transactionId"},
		"id lone surrogate": {`{"transactionType": "PAYMENT", "transactionId": "p\ud800", "status": "PAID"}`, "transactionId"},
	} {
		r := e.call(http.MethodPost, "/webhooks/provider/t0k3n", "", c.body)
		if r.status != http.StatusBadRequest {
			t.Errorf("%s: status %d, want 400: %s", name, r.status, r.raw)
			continue
		}
		if _, ok := r.fieldErrors()[c.field]; c.field != "" && !ok {
			t.Errorf("%s: errors %v do not name %s", name, r.fieldErrors(), c.field)
		}
		if strings.Contains(r.raw, "Go ") || strings.Contains(r.raw, "struct") || strings.Contains(r.raw, "unmarshal") {
			t.Errorf("%s: the answer speaks of Go's types: %s", name, r.raw)
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

// Every provider but the default has its own path and token: a
// notification posted to one is read by that provider's connector, and
// neither another provider's token nor an unknown provider opens it.
func TestProviderWebhookPerProvider(t *testing.T) {
	e := newEnv(t, withWebhookToken, func(s *setup) { s.fleet = []string{"default", "b"} })
	claim := `{"transactionType": "RECEIVEPIX", "transactionId": "abc123", "status": "PAID"}`
	tokenB := ProviderWebhookToken("t0k3n", "b")
	if tokenB == "t0k3n" || len(tokenB) < 32 || tokenB != ProviderWebhookToken("t0k3n", "b") || tokenB == ProviderWebhookToken("t0k3n", "c") {
		t.Fatalf("b's token %q: want its own, stable, at least 32 characters", tokenB)
	}
	e.call(http.MethodPost, "/webhooks/provider/b/"+tokenB, "", claim).expect(t, http.StatusOK)
	e.call(http.MethodPost, "/webhooks/provider/b/"+tokenB+"/pix", "", claim).expect(t, http.StatusOK)
	e.call(http.MethodPost, "/webhooks/provider/t0k3n", "", claim).expect(t, http.StatusOK)
	for _, path := range []string{
		"/webhooks/provider/b/t0k3n",                                 // the default's token
		"/webhooks/provider/b/" + ProviderWebhookToken("t0k3n", "c"), // another's
		"/webhooks/provider/c/" + ProviderWebhookToken("t0k3n", "c"), // no such provider
		"/webhooks/provider/" + tokenB,                               // b's token on the default's path
		"/webhooks/provider/b/" + tokenB[:len(tokenB)-1],             // almost
	} {
		e.call(http.MethodPost, path, "", claim).expect(t, http.StatusNotFound)
	}
	// b's two copies are one event; the default's copy of the same claim
	// is its own (two providers' transaction ids are not one namespace).
	if n := e.count(`SELECT count(*) FROM provider_events`); n != 2 {
		t.Fatalf("events stored = %d, want the claim once per provider", n)
	}
	if n := e.count(`SELECT count(*) FROM provider_events WHERE provider = 'b'`); n != 1 {
		t.Fatalf("events of b = %d, want 1", n)
	}
}

// A process with one provider, not a fleet, has no other path.
func TestProviderWebhookNamedWithoutFleet(t *testing.T) {
	e := newEnv(t, withWebhookToken)
	e.call(http.MethodPost, "/webhooks/provider/b/"+ProviderWebhookToken("t0k3n", "b"), "",
		`{"transactionType": "RECEIVEPIX", "transactionId": "abc123", "status": "PAID"}`).expect(t, http.StatusNotFound)
}
