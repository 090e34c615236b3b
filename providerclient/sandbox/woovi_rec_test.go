package sandbox

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pixgate/pixgate/storage/money/due"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// wooviRecEnv is a sandbox showing its woovi face, and a webhook receiver
// that keeps every event it is sent.
type wooviRecEnv struct {
	t   *testing.T
	sb  *Sandbox
	srv *httptest.Server

	mu     sync.Mutex
	events []map[string]any
}

func newWooviRecEnv(t *testing.T) *wooviRecEnv {
	t.Helper()
	e := &wooviRecEnv{t: t}
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var ev map[string]any
		_ = json.NewDecoder(r.Body).Decode(&ev)
		e.mu.Lock()
		e.events = append(e.events, ev)
		e.mu.Unlock()
	}))
	t.Cleanup(hook.Close)
	e.sb = New(Config{Contract: ContractWoovi, ClientID: "app-id", NotifyMaxInterval: 50 * time.Millisecond, WebhookURL: hook.URL})
	e.srv = httptest.NewServer(e.sb.Handler())
	t.Cleanup(e.srv.Close)
	t.Cleanup(e.sb.Close)
	return e
}

// call sends body (nil: none) with the AppID and decodes the answer.
func (e *wooviRecEnv) call(method, path string, body map[string]any) (int, map[string]any) {
	e.t.Helper()
	var rd io.Reader = http.NoBody
	if body != nil {
		raw, _ := json.Marshal(body)
		rd = strings.NewReader(string(raw))
	}
	req, _ := http.NewRequestWithContext(e.t.Context(), method, e.srv.URL+path, rd)
	req.Header.Set("Authorization", "app-id")
	req.Header.Set("Content-Type", "application/json")
	resp, err := e.srv.Client().Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

// newSubscriptionBody is a weekly subscription of four installments of
// R$ 35.00 starting in a week, as the woovi connector asks it.
func newSubscriptionBody(correlationID string) map[string]any {
	return map[string]any{"correlationID": correlationID, "type": "PIX_RECURRING", "value": 3500, "name": "Plano Ouro",
		"comment":   "4417",
		"customer":  map[string]any{"name": "Fulano de Tal", "taxID": "52998224725", "email": "f@example.com"},
		"frequency": "WEEKLY", "dayGenerateCharge": due.Today(time.Now()).AddDays(7).String() + "T00:00:00.000Z",
		"installmentCount":    4,
		"pixRecurringOptions": map[string]any{"journey": "ONLY_RECURRENCY", "retryPolicy": "THREE_RETRIES_7_DAYS"}}
}

// create makes a subscription and returns its globalID.
func (e *wooviRecEnv) create(correlationID string) string {
	e.t.Helper()
	code, ans := e.call(http.MethodPost, "/api/v1/subscriptions", newSubscriptionBody(correlationID))
	if code != http.StatusOK {
		e.t.Fatalf("create: %d %v", code, ans)
	}
	return ans["subscription"].(map[string]any)["globalID"].(string)
}

// consent reads a subscription's status and its consent's.
func (e *wooviRecEnv) consent(id string) (status, consent string) {
	e.t.Helper()
	code, ans := e.call(http.MethodGet, "/api/v1/subscriptions/"+id, nil)
	if code != http.StatusOK {
		e.t.Fatalf("read %s: %d %v", id, code, ans)
	}
	sub := ans["subscription"].(map[string]any)
	return sub["status"].(string), sub["pixRecurring"].(map[string]any)["status"].(string)
}

// What Woovi refuses, or the sandbox does not simulate, is 400 with
// Woovi's error body naming the field.
func TestWooviSubscriptionRefusals(t *testing.T) {
	e := newWooviRecEnv(t)
	for name, c := range map[string]struct {
		change func(map[string]any)
		field  string
	}{
		"a RECURRENT subscription":   {func(b map[string]any) { b["type"] = "RECURRENT" }, "type"},
		"no correlationID":           {func(b map[string]any) { delete(b, "correlationID") }, "correlationID"},
		"no value":                   {func(b map[string]any) { delete(b, "value") }, "value"},
		"no options":                 {func(b map[string]any) { delete(b, "pixRecurringOptions") }, "pixRecurringOptions"},
		"journey 3 in a week":        {func(b map[string]any) { opts(b)["journey"] = "PAYMENT_ON_APPROVAL" }, "dayGenerateCharge"},
		"an unknown journey":         {func(b map[string]any) { opts(b)["journey"] = "PUSH" }, "journey"},
		"no retry policy":            {func(b map[string]any) { delete(opts(b), "retryPolicy") }, "retryPolicy"},
		"a minimum above the value":  {func(b map[string]any) { opts(b)["minimumValue"] = 4000 }, "minimumValue"},
		"a comment of 30 characters": {func(b map[string]any) { b["comment"] = strings.Repeat("x", 30) }, "comment"},
		"a customer without taxID":   {func(b map[string]any) { delete(b["customer"].(map[string]any), "taxID") }, "customer"},
		"a bad taxID":                {func(b map[string]any) { b["customer"].(map[string]any)["taxID"] = "123" }, "customer.taxID"},
		"bimonthly":                  {func(b map[string]any) { b["frequency"] = "BIMONTHLY" }, "frequency"},
		"a day of the month":         {func(b map[string]any) { b["dayGenerateCharge"] = 10 }, "dayGenerateCharge"},
		"a start two days away": {func(b map[string]any) {
			b["dayGenerateCharge"] = due.Today(time.Now()).AddDays(2).String() + "T00:00:00.000Z"
		}, "dayGenerateCharge"},
		"600 installments": {func(b map[string]any) { b["installmentCount"] = 600 }, "installmentCount"},
	} {
		b := newSubscriptionBody("s-" + strings.ReplaceAll(name, " ", "-"))
		c.change(b)
		code, ans := e.call(http.MethodPost, "/api/v1/subscriptions", b)
		if msg, _ := ans["error"].(string); code != http.StatusBadRequest || !strings.Contains(msg, c.field) {
			t.Errorf("%s: %d %v, want 400 about %s", name, code, ans, c.field)
		}
	}
	e.create("s-once")
	if code, ans := e.call(http.MethodPost, "/api/v1/subscriptions", newSubscriptionBody("s-once")); code != http.StatusBadRequest {
		t.Errorf("a repeated correlationID: %d %v", code, ans)
	}
	for _, path := range []string{"GET /api/v1/subscriptions/nope", "PUT /api/v1/subscriptions/nope/cancel"} {
		method, p, _ := strings.Cut(path, " ")
		if code, ans := e.call(method, p, nil); code != http.StatusBadRequest || ans["error"] != "subscription not found" {
			t.Errorf("%s: %d %v", path, code, ans)
		}
	}
}

func opts(b map[string]any) map[string]any { return b["pixRecurringOptions"].(map[string]any) }

// A subscription is the core's recurrence in Woovi's names: its terms as
// created, read by globalID or correlationID; the payer's refusal and
// their bank's cancel are REJECTED, the receiver's cancel CANCELED (again
// without error), an expiry EXPIRED. Only the approval and the payer's
// REJECTED are notified, in Woovi's webhook shape.
func TestWooviSubscriptionStates(t *testing.T) {
	e := newWooviRecEnv(t)
	id := e.create("s-approved")
	if !regexp.MustCompile(`^UGF5bWVudFN1YnNjcmlwdGlvbj[A-Za-z0-9]+=*$`).MatchString(id) {
		t.Fatalf("globalID %q", id)
	}
	code, ans := e.call(http.MethodGet, "/api/v1/subscriptions/s-approved", nil)
	sub, _ := ans["subscription"].(map[string]any)
	pr, _ := sub["pixRecurring"].(map[string]any)
	if code != http.StatusOK || sub["globalID"] != id || sub["value"] != 3500.0 || sub["status"] != "ACTIVE" || pr["status"] != "CREATED" ||
		pr["emv"] == "" || !regexp.MustCompile(`^RR99999999[0-9]{8}[0-9a-f]{11}$`).MatchString(pr["recurrencyId"].(string)) {
		t.Fatalf("read by correlationID: %d %v", code, ans)
	}
	rec, err := e.sb.Recurrence(id)
	if err != nil || rec.Count != 4 || rec.Periodicity != string(recurrence.Weekly) || rec.Amount != 3500 || rec.Contract != "4417" ||
		rec.Description != "Plano Ouro" || rec.RetryPolicy != string(recurrence.RetryThreeInSeven) {
		t.Fatalf("the core's recurrence: %+v, %v", rec, err)
	}
	if _, err := e.sb.ApproveRecurrence(id, 0); err != nil {
		t.Fatal(err)
	}
	refused, removed, cancelled, expired := e.create("s-refused"), e.create("s-removed"), e.create("s-cancelled"), e.create("s-expired")
	if _, err := e.sb.RejectRecurrence(refused, "AP14"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.sb.ApproveRecurrence(removed, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := e.sb.CancelRecurrence(removed, recurrence.PartyPayer, "SLDB"); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if code, ans := e.call(http.MethodPut, "/api/v1/subscriptions/"+cancelled+"/cancel", nil); code != http.StatusOK {
			t.Fatalf("cancel: %d %v", code, ans)
		}
	}
	if code, ans := e.call(http.MethodPut, "/api/v1/subscriptions/"+refused+"/cancel", nil); code != http.StatusBadRequest {
		t.Fatalf("cancel a refused one: %d %v", code, ans)
	}
	if _, err := e.sb.ExpireRecurrence(expired); err != nil {
		t.Fatal(err)
	}
	for sid, want := range map[string][2]string{id: {"ACTIVE", "APPROVED"}, refused: {"INACTIVE", "REJECTED"},
		removed: {"INACTIVE", "REJECTED"}, cancelled: {"INACTIVE", "CANCELED"}, expired: {"INACTIVE", "EXPIRED"}} {
		if st, c := e.consent(sid); st != want[0] || c != want[1] {
			t.Errorf("%s: %s, %s; want %v", sid, st, c, want)
		}
	}

	want := map[string]string{id + " PIX_AUTOMATIC_APPROVED": "APPROVED", refused + " PIX_AUTOMATIC_REJECTED": "REJECTED",
		removed + " PIX_AUTOMATIC_APPROVED": "APPROVED", removed + " PIX_AUTOMATIC_REJECTED": "REJECTED"}
	deadline := time.Now().Add(5 * time.Second)
	for {
		e.mu.Lock()
		n := len(e.events)
		e.mu.Unlock()
		if n >= len(want) || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond) // nothing more comes
	e.mu.Lock()
	defer e.mu.Unlock()
	got := map[string]string{}
	for _, ev := range e.events {
		pr, _ := ev["pixRecurring"].(map[string]any)
		got[ev["globalID"].(string)+" "+ev["event"].(string)] = pr["status"].(string)
	}
	if len(e.events) != len(want) || len(got) != len(want) {
		t.Fatalf("events %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("event %s: %q, want %q", k, got[k], v)
		}
	}
}
