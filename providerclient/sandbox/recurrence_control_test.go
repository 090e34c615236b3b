package sandbox

import (
	"encoding/json"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// control posts body to a recurrence's control endpoint.
func (e *env) control(id, action string, body any) (int, map[string]any) {
	e.t.Helper()
	return e.call("/sandbox/recurrences/"+id+"/"+action, "", body, nil)
}

// The payer consents with a maximum not below the floor; the approval is
// notified once, read back with the maximum and its time, and a second
// one changes nothing.
func TestRecurrenceApprove(t *testing.T) {
	e := newEnv(t, Config{})
	rc := newReceiver(t, 0)
	body := pushRecurrence("rec-var")
	body["postbackUrl"] = rc.url()
	id := e.createRecurrence(body)
	if status, got := e.control(id, "approve", map[string]any{"payerMax": json.Number("9.99")}); status != http.StatusConflict {
		t.Fatalf("a maximum below the floor: %d %v", status, got)
	}
	if status, got := e.control(id, "approve", map[string]any{"payerMax": "50"}); status != http.StatusUnprocessableEntity {
		t.Fatalf("a maximum as a string: %d %v", status, got)
	}
	status, got := e.control(id, "approve", map[string]any{"payerMax": json.Number("50.00")})
	if status != http.StatusOK || got["status"] != "APPROVED" || num(got["payerMax"]) != "50.00" || !datePattern.MatchString(got["approvedAt"].(string)) {
		t.Fatalf("approve: %d %v", status, got)
	}
	if status, again := e.control(id, "approve", map[string]any{"payerMax": json.Number("80.00")}); status != http.StatusOK ||
		num(again["payerMax"]) != "50.00" || again["approvedAt"] != got["approvedAt"] {
		t.Fatalf("a second approval: %d %v", status, again)
	}
	waitFor(t, "the approval's notification", func() bool { return len(rc.bodies()) == 1 })
	time.Sleep(50 * time.Millisecond) // a second would come now
	n := rc.bodies()
	if len(n) != 1 || n[0]["transactionType"] != contract.TypeRecurrence || n[0]["transactionId"] != id ||
		n[0]["external_id"] != "rec-var" || n[0]["status"] != "APPROVED" || num(n[0]["payerMax"]) != "50.00" {
		t.Fatalf("notifications %v", n)
	}
	for _, action := range []string{"reject", "expire"} {
		if status, got := e.control(id, action, map[string]any{"code": "AP13"}); status != http.StatusConflict {
			t.Errorf("%s an approved one: %d %v", action, status, got)
		}
	}
	if status, _ := e.control("nope", "approve", nil); status != http.StatusNotFound {
		t.Fatalf("approve an unknown one: %d", status)
	}
	fixed := e.createRecurrence(validRecurrence("rec-fixed"))
	if status, got := e.control(fixed, "approve", map[string]any{"payerMax": 100}); status != http.StatusUnprocessableEntity {
		t.Fatalf("a maximum on a fixed recurrence: %d %v", status, got)
	}
	if status, got := e.control(fixed, "approve", nil); status != http.StatusOK || got["status"] != "APPROVED" || got["payerMax"] != nil {
		t.Fatalf("approve a fixed one: %d %v", status, got)
	}
}

// The payer refuses with one of the BCB's codes, once.
func TestRecurrenceReject(t *testing.T) {
	e := newEnv(t, Config{})
	id := e.createRecurrence(validRecurrence("rec-1"))
	if status, got := e.control(id, "reject", map[string]any{"code": "AM02"}); status != http.StatusUnprocessableEntity {
		t.Fatalf("a code not a recurrence's: %d %v", status, got)
	}
	status, got := e.control(id, "reject", map[string]any{"code": "ap14"})
	if status != http.StatusOK || got["status"] != "REJECTED" || got["endCode"] != "AP14" || got["endReason"] == "" {
		t.Fatalf("reject: %d %v", status, got)
	}
	if status, _ := e.control(id, "reject", map[string]any{"code": "AP13"}); status != http.StatusOK {
		t.Fatalf("a second rejection: %d", status)
	}
	if rec, _ := e.sb.Recurrence(id); rec.EndCode != "AP14" {
		t.Fatalf("a second rejection changed the code: %+v", rec)
	}
	for _, action := range []string{"approve", "expire"} {
		if status, _ := e.control(id, action, nil); status != http.StatusConflict {
			t.Errorf("%s a rejected one: %d", action, status)
		}
	}
	if status, _ := e.post(contract.PathRecurrenceCancel, map[string]any{"transactionId": id}); status != http.StatusConflict {
		t.Fatalf("the integrator cancels a rejected one: %d", status)
	}
}

// The consent lapses through the control, or by itself at its deadline;
// a lapsed one takes no answer.
func TestRecurrenceExpire(t *testing.T) {
	e := newEnv(t, Config{})
	id := e.createRecurrence(validRecurrence("rec-1"))
	if status, got := e.control(id, "expire", nil); status != http.StatusOK || got["status"] != "EXPIRED" {
		t.Fatalf("expire: %d %v", status, got)
	}
	lapsed := e.createRecurrence(validRecurrence("rec-2"))
	e.sb.mu.Lock()
	e.sb.records[lapsed].expires = time.Now()
	e.sb.mu.Unlock()
	if rec, _ := e.sb.Recurrence(lapsed); rec.Status != "EXPIRED" {
		t.Fatalf("past its deadline: %+v", rec)
	}
	if _, err := e.sb.ApproveRecurrence(lapsed, 0); !errors.Is(err, ErrConflict) {
		t.Fatalf("approve a lapsed one: %v", err)
	}
	if rec, err := e.sb.ExpireRecurrence(lapsed); err != nil || rec.Status != "EXPIRED" {
		t.Fatalf("expire a lapsed one: %+v, %v", rec, err)
	}
}

// The payer's side cancels with who and a code; the integrator cancels
// through the API, a second time without error.
func TestRecurrenceCancel(t *testing.T) {
	e := newEnv(t, Config{})
	id := e.createRecurrence(validRecurrence("rec-1"))
	if _, err := e.sb.ApproveRecurrence(id, 0); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]map[string]any{
		"by the integrator": {"by": "INTEGRATOR", "code": "SLDB"},
		"by nobody":         {"code": "SLDB"},
		"an unknown code":   {"by": "PAYER", "code": "AP13"},
	} {
		if status, got := e.control(id, "cancel", body); status != http.StatusUnprocessableEntity {
			t.Errorf("%s: %d %v", name, status, got)
		}
	}
	status, got := e.control(id, "cancel", map[string]any{"by": "payer_bank", "code": "FRUD"})
	if status != http.StatusOK || got["status"] != "CANCELLED" || got["cancelledBy"] != "PAYER_BANK" || got["endCode"] != "FRUD" {
		t.Fatalf("cancel by the payer's bank: %d %v", status, got)
	}

	other := e.createRecurrence(validRecurrence("rec-2"))
	for range 2 {
		status, got := e.post(contract.PathRecurrenceCancel, map[string]any{"transactionId": other})
		if status != http.StatusOK || got["status"] != "CANCELLED" || got["transactionId"] != other || got["external_id"] != "rec-2" {
			t.Fatalf("the integrator's cancel: %d %v", status, got)
		}
	}
	rec, _ := e.sb.Recurrence(other)
	if rec.CancelledBy != string(recurrence.PartyIntegrator) || rec.EndCode != "SLCR" || rec.EndReason == "" {
		t.Fatalf("cancelled by the integrator: %+v", rec)
	}
	if status, got := e.post(contract.PathRecurrenceCancel, map[string]any{}); status != http.StatusUnprocessableEntity {
		t.Fatalf("a cancel without transactionId: %d %v", status, got)
	}
	if status, _ := e.post(contract.PathRecurrenceCancel, map[string]any{"transactionId": "nope"}); status != http.StatusNotFound {
		t.Fatalf("cancel an unknown one: %d", status)
	}
	charge := e.paidCharge("10.00")
	if status, _ := e.post(contract.PathRecurrenceCancel, map[string]any{"transactionId": charge}); status != http.StatusNotFound {
		t.Fatalf("cancel a charge: %d", status)
	}
	if _, err := e.sb.ApproveRecurrence(charge, money.FromReais(1, 0)); !errors.Is(err, ErrNotFound) {
		t.Fatalf("approve a charge: %v", err)
	}
}

// The inspect control reads a recurrence as consult-transaction does.
func TestRecurrenceInspect(t *testing.T) {
	e := newEnv(t, Config{})
	id := e.createRecurrence(validRecurrence("rec-1"))
	status, got := e.call("GET /sandbox/recurrences/"+id, "", nil, nil)
	if status != http.StatusOK || got["transactionId"] != id || got["status"] != "CREATED" || got["journey"] != "QR" {
		t.Fatalf("inspect: %d %v", status, got)
	}
	if status, _ := e.call("GET /sandbox/recurrences/nope", "", nil, nil); status != http.StatusNotFound {
		t.Fatalf("inspect an unknown one: %d", status)
	}
}
