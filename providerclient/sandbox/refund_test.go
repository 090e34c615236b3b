package sandbox

import (
	"encoding/json"
	"testing"

	"github.com/pixgate/pixgate/providerclient/contract"
)

// paidCharge creates a charge of amount and pays it.
func (e *env) paidCharge(amount string) string {
	e.t.Helper()
	_, body := e.post("/v2/pix/qrcode", map[string]any{"amount": json.Number(amount)})
	id := body["transactionId"].(string)
	if _, err := e.sb.PayCharge(id, Payer{}); err != nil {
		e.t.Fatal(err)
	}
	return id
}

func TestRefundRules(t *testing.T) {
	e := newEnv(t, Config{})
	e.sb.SetFaults(Faults{ManualSettle: true})
	paid := e.paidCharge("100.00")
	_, pending := e.post("/v2/pix/qrcode", map[string]any{"amount": 5})
	_, payment := e.post("/v2/pix/payment", validPayment(""))

	refund := func(pixID, amount, externalID string) (int, map[string]any) {
		return e.post("/v2/pix/refund", map[string]any{"pix_id": pixID, "amount": json.Number(amount), "description": "devolução", "external_id": externalID})
	}
	tests := []struct {
		name, pixID, amount, externalID string
		status                          int
	}{
		{"unknown pix_id", "nope", "1", "", 404},
		{"unpaid charge", pending["transactionId"].(string), "1", "", 422},
		{"a payment", payment["transactionId"].(string), "1", "", 422},
		{"more than the charge", paid, "100.01", "", 422},
		{"first part", paid, "60.00", "r-1", 200},
		{"replay of the first part", paid, "60.00", "r-1", 200},
		{"over what is left", paid, "40.01", "", 422},
		{"the rest", paid, "40.00", "r-2", 200},
		{"nothing left", paid, "0.01", "", 422},
		{"zero", paid, "0", "", 422},
	}
	ids := map[string]string{}
	for _, tt := range tests {
		status, body := refund(tt.pixID, tt.amount, tt.externalID)
		if status != tt.status {
			t.Fatalf("%s: status %d, want %d (%v)", tt.name, status, tt.status, body)
		}
		if status != 200 {
			continue
		}
		if body["status"] != "PROCESSING" || body["pix_id"] != paid || body["external_id"] != tt.externalID || num(body["amount"]) != tt.amount {
			t.Fatalf("%s: answer %v", tt.name, body)
		}
		if prev, seen := ids[tt.externalID]; seen && prev != body["transactionId"] {
			t.Fatalf("replay created a second refund")
		}
		ids[tt.externalID] = body["transactionId"].(string)
	}
	if got := e.sb.Stats().RefundsCreated; got != 2 {
		t.Fatalf("refunds created %d, want 2", got)
	}
	// A failed refund gives its amount back to the charge's refundable total.
	if _, err := e.sb.Fail(ids["r-2"], ""); err != nil {
		t.Fatal(err)
	}
	if status, body := refund(paid, "40.00", "r-3"); status != 200 {
		t.Fatalf("refund after a failed one: %d %v", status, body)
	}
	done, err := e.sb.Settle(ids["r-1"])
	if err != nil || done.Status != contract.StatusCompleted || done.EndToEndID[0] != 'D' || !endToEndPattern.MatchString(done.EndToEndID) || done.PixID != paid {
		t.Fatalf("settled refund %+v, %v", done, err)
	}
	if _, err := e.sb.Settle(ids["r-1"]); err == nil {
		t.Fatal("settled a refund twice")
	}
}

func TestRefundNotification(t *testing.T) {
	e := newEnv(t, Config{})
	rc := newReceiver(t, 0)
	paid := e.paidCharge("20.00")
	_, body := e.post("/v2/pix/refund", map[string]any{"pix_id": paid, "amount": 5, "description": "x", "postbackUrl": rc.url()})
	waitFor(t, "the REFUND notification", func() bool { return len(rc.bodies()) == 1 })
	n := rc.bodies()[0]
	if n["transactionType"] != "REFUND" || n["status"] != "COMPLETED" || n["pix_id"] != paid ||
		n["transactionId"] != body["transactionId"] || num(n["amount"]) != "5.00" || n["endToEndId"].(string)[0] != 'D' {
		t.Fatalf("notification %v", n)
	}
	if b := e.sb.Balance(); b.Available != DefaultInitialBalance+2000-500 || b.Pending != 0 {
		t.Fatalf("balance %+v", b)
	}
}
