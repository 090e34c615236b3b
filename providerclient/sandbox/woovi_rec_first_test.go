package sandbox

import (
	"net/http"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/providerclient/pix/brcode/brcodetest"
	"github.com/pixgate/pixgate/storage/money/due"
)

// paymentOnApprovalBody is newSubscriptionBody of journey 3: it starts
// today.
func paymentOnApprovalBody(correlationID string) map[string]any {
	b := newSubscriptionBody(correlationID)
	b["dayGenerateCharge"] = due.Today(time.Now()).String() + "T00:00:00.000Z"
	opts(b)["journey"] = "PAYMENT_ON_APPROVAL"
	return b
}

// A PAYMENT_ON_APPROVAL subscription comes with its first charge, made
// under its correlationID and read as any charge, both with the
// composite BR Code; the payer's approval pays it, told by
// OPENPIX:CHARGE_COMPLETED beside PIX_AUTOMATIC_APPROVED, and its
// installment, the first, reads COMPLETED and gets no cobr of Woovi's.
func TestWooviPaymentOnApproval(t *testing.T) {
	e := newWooviRecEnv(t)
	code, ans := e.call(http.MethodPost, "/api/v1/subscriptions", paymentOnApprovalBody("j3-1"))
	if code != http.StatusOK {
		t.Fatalf("create: %d %v", code, ans)
	}
	sub := ans["subscription"].(map[string]any)
	id, consent := sub["globalID"].(string), sub["pixRecurring"].(map[string]any)
	emv, _ := consent["emv"].(string)
	if p, err := brcodetest.Parse(emv); err != nil || p.Location == "" || p.RecurrenceLocation == "" || p.Amount != 3500 ||
		consent["journey"] != "PAYMENT_ON_APPROVAL" {
		t.Fatalf("consent %v: %+v, %v", consent, p, err)
	}
	code, ans = e.call(http.MethodGet, "/api/v1/charge/j3-1", nil)
	charge, _ := ans["charge"].(map[string]any)
	if code != http.StatusOK || charge["status"] != "ACTIVE" || charge["value"] != 3500.0 || charge["brCode"] != emv ||
		charge["correlationID"] != "j3-1" {
		t.Fatalf("the first charge: %d %v", code, ans)
	}
	if code, ans := e.call(http.MethodPost, "/api/v1/subscriptions", paymentOnApprovalBody("j3-1")); code != http.StatusBadRequest {
		t.Fatalf("a repeat: %d %v", code, ans)
	}
	if n := len(e.sb.Transactions(contract.TypeReceivePix)); n != 1 {
		t.Fatalf("%d charges after a repeat", n)
	}

	if _, err := e.sb.ApproveRecurrence(id, 0); err != nil {
		t.Fatal(err)
	}
	if _, ans := e.call(http.MethodGet, "/api/v1/charge/j3-1", nil); ans["charge"].(map[string]any)["status"] != "COMPLETED" {
		t.Fatalf("the first charge once approved: %v", ans)
	}
	_, ans = e.call(http.MethodGet, "/api/v1/subscriptions/"+id+"/installments", nil)
	first := ans["installments"].([]any)[0].(map[string]any)
	if first["status"] != "COMPLETED" || first["cobr"] != nil || first["installmentNumber"] != 1.0 {
		t.Fatalf("the first installment: %v", first)
	}
	want := map[string]bool{"PIX_AUTOMATIC_APPROVED": true, "OPENPIX:CHARGE_COMPLETED": true}
	deadline := time.Now().Add(5 * time.Second)
	for len(want) > 0 && time.Now().Before(deadline) {
		e.mu.Lock()
		for _, ev := range e.events {
			delete(want, ev["event"].(string))
		}
		e.mu.Unlock()
		time.Sleep(10 * time.Millisecond)
	}
	if len(want) > 0 {
		t.Fatalf("events not sent: %v", want)
	}
}

// Journey 3's own refusals: a start other than today, and a charge under
// the correlationID already, of another value (that of the same value is
// an earlier try's, taken again).
func TestWooviPaymentOnApprovalRefusals(t *testing.T) {
	e := newWooviRecEnv(t)
	b := paymentOnApprovalBody("j3-tomorrow")
	b["dayGenerateCharge"] = due.Today(time.Now()).AddDays(1).String() + "T00:00:00.000Z"
	if code, ans := e.call(http.MethodPost, "/api/v1/subscriptions", b); code != http.StatusBadRequest {
		t.Fatalf("a start tomorrow: %d %v", code, ans)
	}
	for cid, value := range map[string]int{"j3-other": 100, "j3-same": 3500} {
		if code, ans := e.call(http.MethodPost, "/api/v1/charge", map[string]any{"correlationID": cid, "value": value}); code != http.StatusOK {
			t.Fatalf("charge %s: %d %v", cid, code, ans)
		}
	}
	if code, ans := e.call(http.MethodPost, "/api/v1/subscriptions", paymentOnApprovalBody("j3-other")); code != http.StatusBadRequest {
		t.Fatalf("a charge of another value under the correlationID: %d %v", code, ans)
	}
	if code, ans := e.call(http.MethodPost, "/api/v1/subscriptions", paymentOnApprovalBody("j3-same")); code != http.StatusOK {
		t.Fatalf("a charge of the same value under the correlationID: %d %v", code, ans)
	}
}
