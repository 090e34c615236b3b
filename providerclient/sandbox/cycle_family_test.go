package sandbox

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/pixgate/pixgate/providerclient/contract"
)

// The family face's cycle routes over HTTP: create (refusals named, a
// repeat the same cycle), consult-transaction, retry, cancel, each change
// notified as a RECURRENCE_CYCLE; and the clock's control.
func TestCycleFamilyFace(t *testing.T) {
	e := newEnv(t, Config{})
	rc := newReceiver(t, 0)
	rec := e.createRecurrence(validRecurrence("rec-1"))
	if status, got := e.control(rec, "approve", nil); status != http.StatusOK {
		t.Fatalf("approve: %d %v", status, got)
	}
	body := map[string]any{"transactionId": rec, "external_id": "cyc-1", "dueDate": day(7), "amount": json.Number("35.00"),
		"description": "Plano Ouro, semana 1", "postbackUrl": rc.url()}
	refusals := []struct {
		name   string
		edit   func(map[string]any)
		status int
		field  string
	}{
		{"no recurrence", func(b map[string]any) { delete(b, "transactionId") }, http.StatusUnprocessableEntity, "transactionId"},
		{"no external_id", func(b map[string]any) { delete(b, "external_id") }, http.StatusUnprocessableEntity, "external_id"},
		{"no dueDate", func(b map[string]any) { b["dueDate"] = "07/12/2026" }, http.StatusUnprocessableEntity, "dueDate"},
		{"no amount", func(b map[string]any) { b["amount"] = json.Number("0") }, http.StatusUnprocessableEntity, "amount"},
		{"a bad postbackUrl", func(b map[string]any) { b["postbackUrl"] = "ftp://x" }, http.StatusUnprocessableEntity, "postbackUrl"},
		{"an unknown recurrence", func(b map[string]any) { b["transactionId"] = "nope" }, http.StatusNotFound, ""},
		{"not a due date", func(b map[string]any) { b["dueDate"] = day(8) }, http.StatusUnprocessableEntity, ""},
		{"outside the window", func(b map[string]any) { b["dueDate"] = day(14) }, http.StatusConflict, ""},
	}
	for _, c := range refusals {
		b := map[string]any{}
		for k, v := range body {
			b[k] = v
		}
		c.edit(b)
		status, got := e.post(contract.PathRecurrenceCycle, b)
		if status != c.status || (c.field != "" && !hasFieldError(got, c.field)) {
			t.Errorf("%s: %d %v", c.name, status, got)
		}
	}
	status, got := e.post(contract.PathRecurrenceCycle, body)
	id, _ := got["transactionId"].(string)
	if status != http.StatusOK || !transactionIDPattern.MatchString(id) || got["transactionType"] != contract.TypeRecurrenceCycle ||
		got["status"] != "CREATED" || got["recurrenceId"] != rec || num(got["amount"]) != "35.00" || got["dueDate"] != day(7) {
		t.Fatalf("create: %d %v", status, got)
	}
	if status, again := e.post(contract.PathRecurrenceCycle, body); status != http.StatusOK || again["transactionId"] != id {
		t.Fatalf("a repeat: %d %v", status, again)
	}
	if status, c := e.call("/sandbox/cycles/cyc-1/expire", "", nil, nil); status != http.StatusOK || c["status"] != "CREATED" {
		t.Fatalf("expire by external id: %d %v", status, c)
	}
	retry := map[string]any{"transactionId": id, "date": day(8)}
	if status, got := e.post(contract.PathRecurrenceCycleRetry, map[string]any{"transactionId": id, "date": day(7)}); status != http.StatusConflict {
		t.Fatalf("a retry on the due date: %d %v", status, got)
	}
	for range 2 {
		status, got = e.post(contract.PathRecurrenceCycleRetry, retry)
		if a := got["attempts"].([]any); status != http.StatusOK || fmt.Sprint(got["retries"]) != "1" || len(a) != 2 ||
			a[1].(map[string]any)["type"] != "NTAG" || a[1].(map[string]any)["settleOn"] != day(8) {
			t.Fatalf("retry: %d %v", status, got)
		}
	}
	status, got = e.post("/v2/consult-transaction", map[string]any{"pix_id": id})
	if inner, _ := got["requestBody"].(map[string]any); status != http.StatusOK || inner["transactionType"] != contract.TypeRecurrenceCycle ||
		inner["external_id"] != "cyc-1" {
		t.Fatalf("consult: %d %v", status, got)
	}
	for range 2 {
		status, got = e.post(contract.PathRecurrenceCycleCancel, map[string]any{"transactionId": id})
		if status != http.StatusOK || got["status"] != "CANCELLED" || got["cancelledBy"] != "INTEGRATOR" {
			t.Fatalf("cancel: %d %v", status, got)
		}
	}
	if status, got := e.post(contract.PathRecurrenceCycleCancel, map[string]any{"transactionId": "nope"}); status != http.StatusNotFound {
		t.Fatalf("cancel an unknown one: %d %v", status, got)
	}
	waitFor(t, "the notifications", func() bool { return len(rc.bodies()) == 3 }) // expired, retry asked, cancelled
	for _, n := range rc.bodies() {
		if n["transactionType"] != contract.TypeRecurrenceCycle || n["transactionId"] != id || n["external_id"] != "cyc-1" {
			t.Fatalf("notification %v", n)
		}
	}
}

func TestCycleClockControl(t *testing.T) {
	e := newEnv(t, Config{})
	if status, got := e.call("/sandbox/clock", "", map[string]any{"today": day(3)}, nil); status != http.StatusOK || got["today"] != day(3) {
		t.Fatalf("set: %d %v", status, got)
	}
	for _, bad := range []string{day(-1), "tomorrow", ""} {
		if status, got := e.call("/sandbox/clock", "", map[string]any{"today": bad}, nil); status != http.StatusUnprocessableEntity {
			t.Errorf("today %q: %d %v", bad, status, got)
		}
	}
	if status, got := e.call("GET /sandbox/clock", "", nil, nil); status != http.StatusOK || got["today"] != day(3) {
		t.Fatalf("get: %d %v", status, got)
	}
}
