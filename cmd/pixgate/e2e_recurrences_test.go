package main

import (
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/pixgate/pixgate/storage/money/due"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// recurrenceEnd is how a recurrence ended, as PixGate reads it back:
// status, cancelled_by and end_code (<nil>: none).
type recurrenceEnd struct{ status, cancelledBy, endCode string }

// recurrenceConnectors are the connectors a consent runs through, each
// against the sandbox's face of its contract, with what that contract
// tells of the payer's side: the maximum the payer set (payerMax, as
// PixGate shows it), how the payer's refusal (AP13) and their bank's
// cancel (FRUD) of an approved recurrence read back, and the postbacks
// they make. The family's extension carries them all; the BCB's rec
// (efi) all but the maximum ([API-Pix] RecCompleta); Woovi's
// subscriptions carry no maximum and no code, and call both the refusal
// and the bank's cancel REJECTED, which PixGate reads as the payer's
// cancel (docs/provider.md, "Recurrences (woovi)").
type recurrenceConnector struct {
	kind                   string
	payerMax               string
	refused, bankCancelled recurrenceEnd
	push                   bool // offers the PUSH journey
	firstPayment           bool // offers the QR_WITH_PAYMENT journey
	cancelsCycles          bool // cancels a sent cycle (Woovi has no route for it)
}

var recurrenceConnectors = []recurrenceConnector{
	{kind: "family", payerMax: "50.00",
		refused:       recurrenceEnd{"REJECTED", "<nil>", "AP13"},
		bankCancelled: recurrenceEnd{"CANCELLED", "PAYER_BANK", "FRUD"}, push: true, firstPayment: true, cancelsCycles: true},
	{kind: "efi", payerMax: "<nil>",
		refused:       recurrenceEnd{"REJECTED", "<nil>", "AP13"},
		bankCancelled: recurrenceEnd{"CANCELLED", "PAYER_BANK", "FRUD"}, push: true, firstPayment: true, cancelsCycles: true},
	{kind: "woovi", payerMax: "<nil>",
		refused:       recurrenceEnd{"CANCELLED", "PAYER", "<nil>"},
		bankCancelled: recurrenceEnd{"CANCELLED", "PAYER", "<nil>"}, firstPayment: true},
}

// Pix Automático end to end, through each connector and the sandbox
// playing the payer's bank. The consent: a QR recurrence registered with
// its QR Code, approved by the payer (with a maximum above its floor),
// then cancelled by the integrator; a second refused by the payer with a
// BCB code; a third cancelled by the payer's bank. Then the cycles of
// each journey the connector offers (cycleFlow). Each status reaches
// PixGate (confirmed with the provider) and the integrator once, by a
// postback the Standard Webhooks signature verifies; the audit stays
// clean; and the QR journey's answers (the recurrence, its cycles) are
// the same, member by member, whatever the connector.
func TestRecurrenceConsentEndToEnd(t *testing.T) {
	var mu sync.Mutex
	answers := map[string]map[string]map[string]string{} // kind → answer → member → shape
	t.Run("flows", func(t *testing.T) {
		for _, c := range recurrenceConnectors {
			t.Run(c.kind, func(t *testing.T) {
				got := recurrenceFlows(t, c)
				mu.Lock()
				answers[c.kind] = got
				mu.Unlock()
			})
		}
	})
	if !t.Failed() && len(answers) == len(recurrenceConnectors) {
		sameShapes(t, answers)
	}
}

// recurrenceFlows runs the consent's flows and the cycles' on a stack of
// its own whose sandbox speaks kind's contract, and returns the QR
// journey's answers.
func recurrenceFlows(t *testing.T, c recurrenceConnector) map[string]map[string]string {
	storagetest.Parallel(t, devStackConns)
	s := newDevStack(t, append(contractEnv(t, c.kind), "PIXGATE_RECONCILE_INTERVAL", "200ms",
		"PIXGATE_RECONCILE_STALE_AFTER", "2s")...)
	recurrenceConsent(t, s, c.payerMax, c.refused, c.bankCancelled)
	pushConsent(t, s, c.push)
	if c.kind == "family" {
		failedThenRetried(t, s)
	}
	if c.push { // the contracts that notify a lapsed consent (woovi documents no webhook for it)
		lapsedConsent(t, s)
	}
	variableFlow(t, s) // these two start from the API's today: before the sandbox's clock moves
	if c.firstPayment {
		cycleFlow(t, s, "QR_WITH_PAYMENT", c.cancelsCycles)
	}
	answers := cycleFlow(t, s, "QR", c.cancelsCycles)
	if c.push {
		cycleFlow(t, s, "PUSH", c.cancelsCycles)
	}
	s.auditClean()
	return answers
}

// recurrenceConsent runs the consent's flow on s.
func recurrenceConsent(t *testing.T, s *devStack, payerMax string, refused, bankCancelled recurrenceEnd) {
	start := due.Today(time.Now()).AddDays(15).String()
	fixed := map[string]any{"type": "fixed", "value": 35.00}
	create := func(ext string, amount map[string]any) (id, pid string) {
		t.Helper()
		code, r := s.call(http.MethodPost, "/api/v1/recurrences", map[string]any{
			"external_id": ext, "journey": "QR", "payer": payer, "contract": "4417", "description": "Plano Ouro",
			"calendar": map[string]any{"periodicity": "MONTHLY", "start": start, "count": 12},
			"amount":   amount, "retry_policy": "THREE_IN_7_DAYS",
			"postbackUrl": s.receiver.URL + "/rec",
		})
		if code != http.StatusCreated || r["status"] != "CREATED" || r["qrcode"] == nil || r["provider_id"] == nil {
			t.Fatalf("create %s: %d %v", ext, code, r)
		}
		return r["id"].(string), r["provider_id"].(string)
	}
	status := func(id string) map[string]any {
		_, r := s.call(http.MethodGet, "/api/v1/recurrences/"+id, nil)
		return r
	}
	waitFor := func(id, want string) map[string]any {
		t.Helper()
		var r map[string]any
		s.eventually("recurrence "+want, 10*time.Second, func() bool { r = status(id); return r["status"] == want })
		return r
	}

	// A variable amount with a floor, whose maximum the payer sets.
	id, pid := create("plano-1", map[string]any{"type": "variable", "floor": 20.00})
	if code, v := s.control(http.MethodPost, "/sandbox/recurrences/"+pid+"/approve", map[string]any{"payerMax": 50.00}); code != http.StatusOK {
		t.Fatalf("approve: %d %v", code, v)
	}
	if r := waitFor(id, "APPROVED"); fmt.Sprint(r["payer_max"]) != payerMax || r["approved_at"] == nil {
		t.Errorf("approved: %v", r)
	}
	if code, r := s.call(http.MethodPost, "/api/v1/recurrences/"+id+"/cancel", nil); code != http.StatusAccepted {
		t.Fatalf("cancel: %d %v", code, r)
	}
	if r := waitFor(id, "CANCELLED"); r["cancelled_by"] != "INTEGRATOR" || r["ended_at"] == nil {
		t.Errorf("cancelled: %v", r)
	}
	if code, r := s.call(http.MethodPost, "/api/v1/recurrences/"+id+"/cancel", nil); code != http.StatusUnprocessableEntity {
		t.Errorf("cancelled twice: %d %v", code, r)
	}

	id2, pid2 := create("plano-2", fixed)
	if code, v := s.control(http.MethodPost, "/sandbox/recurrences/"+pid2+"/reject", map[string]any{"code": "AP13"}); code != http.StatusOK {
		t.Fatalf("reject: %d %v", code, v)
	}
	if r := waitFor(id2, refused.status); fmt.Sprint(r["cancelled_by"]) != refused.cancelledBy || fmt.Sprint(r["end_code"]) != refused.endCode {
		t.Errorf("refused: %v", r)
	}
	id3, pid3 := create("plano-3", fixed)
	s.control(http.MethodPost, "/sandbox/recurrences/"+pid3+"/approve", map[string]any{})
	waitFor(id3, "APPROVED")
	if code, v := s.control(http.MethodPost, "/sandbox/recurrences/"+pid3+"/cancel", map[string]any{"by": "PAYER_BANK", "code": "FRUD"}); code != http.StatusOK {
		t.Fatalf("payer's bank cancels: %d %v", code, v)
	}
	if r := waitFor(id3, bankCancelled.status); fmt.Sprint(r["cancelled_by"]) != bankCancelled.cancelledBy ||
		fmt.Sprint(r["end_code"]) != bankCancelled.endCode {
		t.Errorf("cancelled by the payer's bank: %v", r)
	}

	// One verified postback per status reached, none for CREATED.
	want := map[string]int{"plano-1 APPROVED": 1, "plano-1 CANCELLED": 1, "plano-2 " + refused.status: 1, "plano-3 APPROVED": 1,
		"plano-3 " + bankCancelled.status: 1}
	s.eventually("the recurrences' postbacks", 10*time.Second, func() bool { return len(s.receiver.deliveries()) >= len(want) })
	got := map[string]int{}
	for _, p := range s.receiver.verified(t, s.webhookSecret) {
		if p["transactionType"] == "RECURRENCE" {
			got[fmt.Sprint(p["external_id"], " ", p["status"])]++
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("postbacks %v, want %v", got, want)
	}
	s.auditClean()
}

// pushConsent is the PUSH journey on s: the request goes to the payer's
// bank by their account (no QR Code), and the payer approves it there;
// a connector that does not offer it refuses it before anything is
// written (journey_not_supported).
func pushConsent(t *testing.T, s *devStack, offered bool) {
	body := map[string]any{"external_id": "plano-push", "journey": "PUSH", "contract": "4417", "retry_policy": "NONE",
		"payer":    map[string]any{"name": "Fulano de Tal", "document": "529.982.247-25", "bank": map[string]any{"ispb": "00000000", "branch": "0001", "account": "123456"}},
		"calendar": map[string]any{"periodicity": "WEEKLY", "start": due.Today(time.Now()).AddDays(15).String()},
		"amount":   map[string]any{"type": "fixed", "value": 12.00}, "postbackUrl": s.receiver.URL + "/rec"}
	code, r := s.call(http.MethodPost, "/api/v1/recurrences", body)
	if !offered {
		if code != http.StatusUnprocessableEntity || r["code"] != "journey_not_supported" {
			t.Errorf("PUSH where it is not offered: %d %v", code, r)
		}
		return
	}
	if code != http.StatusCreated || r["status"] != "CREATED" || r["qrcode"] != nil || r["provider_id"] == nil {
		t.Fatalf("PUSH: %d %v", code, r)
	}
	if code, v := s.control(http.MethodPost, "/sandbox/recurrences/"+r["provider_id"].(string)+"/approve", map[string]any{}); code != http.StatusOK {
		t.Fatalf("approve PUSH: %d %v", code, v)
	}
	s.eventually("PUSH APPROVED", 10*time.Second, func() bool {
		_, got := s.call(http.MethodGet, "/api/v1/recurrences/plano-push", nil)
		return got["status"] == "APPROVED"
	})
}

// failedThenRetried: a recurrence asked while the provider is down is
// answered 503 and recorded FAILED, with why; the same request once it is
// back is the same recurrence, registered (200, CREATED, its QR Code).
func failedThenRetried(t *testing.T, s *devStack) {
	body := map[string]any{"external_id": "plano-falha", "journey": "QR", "payer": payer, "contract": "4417", "retry_policy": "NONE",
		"calendar": map[string]any{"periodicity": "MONTHLY", "start": due.Today(time.Now()).AddDays(15).String()},
		"amount":   map[string]any{"type": "fixed", "value": 12.00}}
	if code, v := s.control(http.MethodPost, "/sandbox/faults", map[string]any{"outage": true, "routes": []string{"/v2/pix/recurrence"}}); code != http.StatusOK {
		t.Fatalf("faults: %d %v", code, v)
	}
	code, r := s.call(http.MethodPost, "/api/v1/recurrences", body)
	if code != http.StatusServiceUnavailable {
		t.Fatalf("asked while the provider is down: %d %v", code, r)
	}
	_, r = s.call(http.MethodGet, "/api/v1/recurrences/plano-falha", nil)
	if r["status"] != "FAILED" || r["failure_reason"] == nil {
		t.Fatalf("after the outage: %v", r)
	}
	s.control(http.MethodDelete, "/sandbox/faults", nil)
	// Retried as an integrator does, until the breaker lets it through.
	s.eventually("the same request registered once the provider is back", 10*time.Second, func() bool {
		code, r = s.call(http.MethodPost, "/api/v1/recurrences", body)
		return code != http.StatusServiceUnavailable
	})
	if code != http.StatusOK || r["status"] != "CREATED" || r["qrcode"] == nil || r["failure_reason"] != nil {
		t.Fatalf("the same request once it is back: %d %v", code, r)
	}
	if n := s.count(`SELECT count(*) FROM recurrences WHERE external_id = 'plano-falha'`); n != 1 {
		t.Fatalf("%d recurrences for one external_id", n)
	}
}

// lapsedConsent: a consent the payer lets lapse at their bank is EXPIRED
// at PixGate, with its postback.
func lapsedConsent(t *testing.T, s *devStack) {
	body := map[string]any{"external_id": "plano-lapso", "journey": "QR", "payer": payer, "contract": "4417", "retry_policy": "NONE",
		"calendar": map[string]any{"periodicity": "MONTHLY", "start": due.Today(time.Now()).AddDays(15).String()},
		"amount":   map[string]any{"type": "fixed", "value": 12.00}, "postbackUrl": s.receiver.URL + "/rec"}
	code, r := s.call(http.MethodPost, "/api/v1/recurrences", body)
	if code != http.StatusCreated {
		t.Fatalf("create: %d %v", code, r)
	}
	if code, v := s.control(http.MethodPost, "/sandbox/recurrences/"+r["provider_id"].(string)+"/expire", nil); code != http.StatusOK {
		t.Fatalf("expire: %d %v", code, v)
	}
	s.eventually("the lapsed consent EXPIRED, and told", 10*time.Second, func() bool {
		_, got := s.call(http.MethodGet, "/api/v1/recurrences/plano-lapso", nil)
		if got["status"] != "EXPIRED" || got["ended_at"] == nil {
			return false
		}
		for _, p := range s.receiver.verified(t, s.webhookSecret) {
			if p["external_id"] == "plano-lapso" && p["status"] == "EXPIRED" {
				return true
			}
		}
		return false
	})
}
