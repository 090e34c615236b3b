package sandbox

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/providerclient/pix/brcode/brcodetest"
)

// journey3Recurrence is validRecurrence of journey QR_WITH_PAYMENT with a
// first payment of 35.00.
func journey3Recurrence(externalID string) map[string]any {
	body := validRecurrence(externalID)
	body["journey"] = "QR_WITH_PAYMENT"
	body["firstPayment"] = map[string]any{"amount": json.Number("35.00"), "external_id": "pay-" + externalID}
	return body
}

// The family face creates the first payment's charge (the recurrence's
// payer, postbackUrl and deadline) and the recurrence, answers both with
// the composite code, answers a repeat the same, and consult-transaction
// reads the first payment as the ordinary charge it is.
func TestFamilyFirstPayment(t *testing.T) {
	e := newEnv(t, Config{})
	status, got := e.post(contract.PathRecurrence, journey3Recurrence("rec-j3"))
	fp, _ := got["firstPayment"].(map[string]any)
	if status != http.StatusOK || got["status"] != "CREATED" || fp == nil || fp["qrcode"] != got["qrcode"] {
		t.Fatalf("create: %d %v", status, got)
	}
	charge := fp["transactionId"].(string)
	p, err := brcodetest.Parse(got["qrcode"].(string))
	if err != nil || p.Amount != 3500 || p.Location != DefaultPublicHost+"/qr/v2/"+charge ||
		p.RecurrenceLocation != DefaultPublicHost+"/qr/v2/rec/"+got["transactionId"].(string) {
		t.Fatalf("BR Code %+v, %v", p, err)
	}
	if _, again := e.post(contract.PathRecurrence, journey3Recurrence("rec-j3")); again["transactionId"] != got["transactionId"] ||
		again["firstPayment"].(map[string]any)["transactionId"] != charge || again["qrcode"] != got["qrcode"] {
		t.Fatalf("repeat: %v", again)
	}
	_, read := e.post("/v2/consult-transaction", map[string]any{"pix_id": charge})
	rb := read["requestBody"].(map[string]any)
	if rb["transactionType"] != contract.TypeReceivePix || rb["status"] != "PENDING" || num(rb["amount"]) != "35.00" ||
		rb["external_id"] != "pay-rec-j3" || rb["qrcode"] != got["qrcode"] {
		t.Fatalf("consult the first payment: %v", rb)
	}
	rec, _ := e.sb.Recurrence(got["transactionId"].(string))
	if c, _ := e.sb.Transaction(charge); c.DueDate != rec.ConsentExpiresAt {
		t.Fatalf("the charge expires %s, the consent %s", c.DueDate, rec.ConsentExpiresAt)
	}
	if n := len(e.sb.Transactions(contract.TypeReceivePix)); n != 1 {
		t.Fatalf("%d charges, want 1", n)
	}
	if status, got := e.control(rec.TransactionID, "approve", nil); status != http.StatusOK || got["status"] != "APPROVED" {
		t.Fatalf("approve: %d %v", status, got)
	}
	if c, _ := e.sb.Transaction(charge); c.Status != contract.StatusPaid {
		t.Fatalf("first payment %s after the approval", c.Status)
	}
}

// firstPayment is required by journey QR_WITH_PAYMENT, refused by the
// others, and checked field by field; a charge already another's first
// payment is 409.
func TestFamilyFirstPaymentRefusals(t *testing.T) {
	e := newEnv(t, Config{})
	cases := map[string]struct {
		body  map[string]any
		field string
	}{
		"journey 3 without one":   {func() map[string]any { b := journey3Recurrence("r"); delete(b, "firstPayment"); return b }(), "firstPayment"},
		"the QR journey with one": {func() map[string]any { b := journey3Recurrence("r"); b["journey"] = "QR"; return b }(), "firstPayment"},
		"not an object":           {func() map[string]any { b := journey3Recurrence("r"); b["firstPayment"] = "35.00"; return b }(), "firstPayment"},
		"no amount": {func() map[string]any {
			b := journey3Recurrence("r")
			delete(b["firstPayment"].(map[string]any), "amount")
			return b
		}(), "firstPayment.amount"},
		"a zero amount": {func() map[string]any {
			b := journey3Recurrence("r")
			b["firstPayment"].(map[string]any)["amount"] = 0
			return b
		}(), "firstPayment.amount"},
		"an amount too large": {func() map[string]any {
			b := journey3Recurrence("r")
			b["firstPayment"].(map[string]any)["amount"] = json.Number("99999999999.00")
			return b
		}(), "firstPayment.amount"},
		"no external_id": {func() map[string]any {
			b := journey3Recurrence("r")
			delete(b["firstPayment"].(map[string]any), "external_id")
			return b
		}(), "firstPayment.external_id"},
		"a long external_id": {func() map[string]any {
			b := journey3Recurrence("r")
			b["firstPayment"].(map[string]any)["external_id"] = string(make([]byte, 300))
			return b
		}(), "firstPayment.external_id"},
	}
	for name, c := range cases {
		if status, got := e.post(contract.PathRecurrence, c.body); status != http.StatusUnprocessableEntity || !hasFieldError(got, c.field) {
			t.Errorf("%s: %d %v, want 422 on %s", name, status, got, c.field)
		}
	}
	if n := len(e.sb.Transactions("")); n != 0 {
		t.Fatalf("refusals created %d transactions", n)
	}
	e.createRecurrence(journey3Recurrence("rec-1"))
	other := journey3Recurrence("rec-2")
	other["firstPayment"].(map[string]any)["external_id"] = "pay-rec-1"
	if status, got := e.post(contract.PathRecurrence, other); status != http.StatusConflict {
		t.Fatalf("another's first payment: %d %v", status, got)
	}
	if n := len(e.sb.Transactions(contract.TypeRecurrence)); n != 1 {
		t.Fatalf("%d recurrences, want 1", n)
	}
}
