package api

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

const hookURL = "https://loja.example/pix"

// postbackFor writes a PENDING postback of integrator, as a status change
// does, and returns its id.
func (e *env) postbackFor(integrator int64, event string) uuid.UUID {
	e.t.Helper()
	ctx := context.Background()
	id := uuid.Must(uuid.NewV7())
	err := e.db.InTx(ctx, func(tx *storage.Tx) error {
		return tx.WritePostback(ctx, storage.NewPostback{ID: id, IntegratorID: integrator, ResourceType: "charge",
			ResourceID: uuid.New(), Event: event, URL: hookURL, Body: []byte(`{"requestBody":{"status":"` + event + `"}}`),
			Outbox: storage.OutboxMessage{Type: "postback:deliver", ID: "postback:deliver:" + id.String(), Payload: []byte(`{}`)}})
	})
	if err != nil {
		e.t.Fatal(err)
	}
	return id
}

// Endpoints listed, paused and resumed; refusals name the field; another
// integrator's endpoint is its own.
func TestV1WebhookEndpoints(t *testing.T) {
	e := newEnv(t)
	in, v1 := e.integrator("Loja Hooks", money.Percent(0), money.Fixed(0))
	_, other := e.integrator("Loja Vizinha", money.Percent(0), money.Fixed(0))
	e.postbackFor(in.ID, "PAID")

	list := e.call(http.MethodGet, "/api/v1/webhook-endpoints", v1, nil).expect(t, http.StatusOK)
	if d := list.data(); len(d) != 1 || d[0]["url"] != hookURL || d[0]["status"] != "ACTIVE" || d[0]["changed_at"] != nil ||
		fmt.Sprint(d[0]["postbacks_waiting"]) != "1" {
		t.Fatalf("list: %s", list.raw)
	}
	if d := e.call(http.MethodGet, "/api/v1/webhook-endpoints", other, nil).expect(t, http.StatusOK).data(); len(d) != 0 {
		t.Fatalf("another integrator sees %v", d)
	}
	for body, field := range map[string]string{`{}`: "url", `{"url": 7}`: "url", `{"url": "ftp://x"}`: "url", `{"url": "loja"}`: "url"} {
		r := e.call(http.MethodPost, "/api/v1/webhook-endpoints/pause", v1, body).expect(t, http.StatusUnprocessableEntity)
		if r.fieldErrors()[field] == nil {
			t.Errorf("pause %s: %s", body, r.raw)
		}
	}
	e.call(http.MethodPost, "/api/v1/webhook-endpoints/resume", v1, `{"url": "`+hookURL+`"}`).expect(t, http.StatusNotFound)
	p := e.call(http.MethodPost, "/api/v1/webhook-endpoints/pause", v1, `{"url": "`+hookURL+`"}`).expect(t, http.StatusOK)
	if p.str("status") != "PAUSED" || p.str("changed_at") == "" {
		t.Fatalf("pause: %s", p.raw)
	}
	// Another integrator's resume of the same URL finds no endpoint of its own.
	e.call(http.MethodPost, "/api/v1/webhook-endpoints/resume", other, `{"url": "`+hookURL+`"}`).expect(t, http.StatusNotFound)
	r := e.call(http.MethodPost, "/api/v1/webhook-endpoints/resume", v1, `{"url": "`+hookURL+`"}`).expect(t, http.StatusOK)
	if r.str("status") != "ACTIVE" || r.get("queued") != "1" {
		t.Fatalf("resume: %s", r.raw)
	}
	_, readOnly, err := e.db.CreateKey(context.Background(), storage.NewKey{IntegratorID: in.ID, Scopes: []string{storage.ScopeWebhooksRead}})
	if err != nil {
		t.Fatal(err)
	}
	e.call(http.MethodPost, "/api/v1/webhook-endpoints/pause", readOnly.Token(), `{"url": "`+hookURL+`"}`).expect(t, http.StatusForbidden)
}

// The delivery log: paged, filtered, one postback with its attempts;
// replays of one and of a range; refusals name the field; another
// integrator's postback is 404.
func TestV1PostbackLogAndReplay(t *testing.T) {
	e := newEnv(t)
	in, v1 := e.integrator("Loja Log", money.Percent(0), money.Fixed(0))
	_, other := e.integrator("Loja Vizinha", money.Percent(0), money.Fixed(0))
	paid, expired := e.postbackFor(in.ID, "PAID"), e.postbackFor(in.ID, "EXPIRED")
	next := time.Now().Add(time.Minute)
	if _, err := e.db.RecordPostbackAttempt(context.Background(), paid, storage.PostbackAttemptResult{StatusCode: 503,
		Latency: 12 * time.Millisecond, Outcome: storage.OutcomeRetry, NextAttemptAt: &next}); err != nil {
		t.Fatal(err)
	}

	first := e.call(http.MethodGet, "/api/v1/postbacks?per_page=1", v1, nil).expect(t, http.StatusOK)
	cursor := first.str("meta.next_cursor")
	if d := first.data(); len(d) != 1 || d[0]["id"] != expired.String() || cursor == "" {
		t.Fatalf("first page: %s", first.raw)
	}
	if d := e.call(http.MethodGet, "/api/v1/postbacks?per_page=1&cursor="+cursor, v1, nil).expect(t, http.StatusOK).data(); len(d) != 1 || d[0]["id"] != paid.String() {
		t.Fatalf("second page: %v", d)
	}
	if d := e.call(http.MethodGet, "/api/v1/postbacks?event=paid&resource_type=charge&status=pending&since=2020-01-01T00:00:00Z", v1, nil).
		expect(t, http.StatusOK).data(); len(d) != 1 || d[0]["id"] != paid.String() {
		t.Fatalf("filtered: %v", d)
	}
	for query, field := range map[string]string{"status=LOST": "status", "resource_type=boleto": "resource_type", "since=ontem": "since",
		"until=2024-13-01": "until", "event=a%00b": "event", "page=2": "page", "cursor=x": "cursor"} {
		r := e.call(http.MethodGet, "/api/v1/postbacks?"+query, v1, nil).expect(t, http.StatusUnprocessableEntity)
		if r.fieldErrors()[field] == nil {
			t.Errorf("%s: %s", query, r.raw)
		}
	}
	one := e.call(http.MethodGet, "/api/v1/postbacks/"+paid.String(), v1, nil).expect(t, http.StatusOK)
	if one.get("attempt_list") == nil || one.get("body.requestBody.status") != "PAID" {
		t.Fatalf("one: %s", one.raw)
	}
	if a := one.body["attempt_list"].([]any); len(a) != 1 || a[0].(map[string]any)["status_code"] == nil {
		t.Fatalf("attempts: %s", one.raw)
	}
	for _, path := range []string{"/api/v1/postbacks/" + paid.String(), "/api/v1/postbacks/x"} {
		e.call(http.MethodGet, path, other, nil).expect(t, http.StatusNotFound)
	}
	e.call(http.MethodPost, "/api/v1/postbacks/"+paid.String()+"/replay", other, nil).expect(t, http.StatusNotFound)
	if r := e.call(http.MethodPost, "/api/v1/postbacks/"+paid.String()+"/replay", v1, nil).expect(t, http.StatusAccepted); r.str("status") != "PENDING" {
		t.Fatalf("replay: %s", r.raw)
	}

	for body, field := range map[string]string{`{}`: "since", `{"since": "2020-01-01T00:00:00Z"}`: "until",
		`{"since": "ontem", "until": "2020-01-01T00:00:00Z"}`:                "since",
		`{"since": "2021-01-01T00:00:00Z", "until": "2020-01-01T00:00:00Z"}`: "until"} {
		r := e.call(http.MethodPost, "/api/v1/postbacks/replay", v1, body).expect(t, http.StatusUnprocessableEntity)
		if r.fieldErrors()[field] == nil {
			t.Errorf("replay %s: %s", body, r.raw)
		}
	}
	rng := `{"since": "2020-01-01T00:00:00Z", "until": "` + time.Now().Add(time.Hour).UTC().Format(time.RFC3339) + `"}`
	if r := e.call(http.MethodPost, "/api/v1/postbacks/replay", v1, rng).expect(t, http.StatusAccepted); r.get("queued") != "2" {
		t.Fatalf("range: %s", r.raw)
	}
	if r := e.call(http.MethodPost, "/api/v1/postbacks/replay", other, rng).expect(t, http.StatusAccepted); r.get("queued") != "0" {
		t.Fatalf("another integrator's range: %s", r.raw)
	}
}
