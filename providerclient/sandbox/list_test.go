package sandbox

import (
	"net/http"
	"testing"
)

// GET /sandbox/transactions is the sandbox's whole ledger in creation
// order, each transaction as consult describes it, filtered by type on
// demand; a repeated external_id adds nothing.
func TestTransactionsListTheLedgerInCreationOrder(t *testing.T) {
	e := newEnv(t, Config{})
	status, list := e.call("GET /sandbox/transactions", "", nil, nil)
	if txs, ok := list["transactions"].([]any); status != http.StatusOK || !ok || len(txs) != 0 {
		t.Fatalf("empty sandbox: %d %v, want an empty list", status, list)
	}
	_, charge := e.post("/v2/pix/qrcode", map[string]any{"amount": 100, "external_id": "order-1"})
	chargeID := charge["transactionId"].(string)
	if _, err := e.sb.PayCharge(chargeID, Payer{}); err != nil {
		t.Fatal(err)
	}
	_, pay := e.post("/v2/pix/payment", validPayment("wd-1"))
	e.post("/v2/pix/payment", validPayment("wd-1"))
	_, refund := e.post("/v2/pix/refund", map[string]any{"pix_id": chargeID, "amount": 5})
	want := []struct{ id, kind string }{
		{chargeID, "RECEIVEPIX"}, {pay["transactionId"].(string), "PAYMENT"}, {refund["transactionId"].(string), "REFUND"},
	}

	for _, filter := range []string{"", "RECEIVEPIX", "PAYMENT", "refund"} {
		status, list := e.call("GET /sandbox/transactions?type="+filter, "", nil, nil)
		txs, _ := list["transactions"].([]any)
		var got []map[string]any
		for _, tx := range txs {
			got = append(got, tx.(map[string]any))
		}
		var expect []struct{ id, kind string }
		for _, w := range want {
			if filter == "" || filter == w.kind || (filter == "refund" && w.kind == "REFUND") {
				expect = append(expect, w)
			}
		}
		if status != http.StatusOK || len(got) != len(expect) {
			t.Fatalf("type=%s: %d, %d transactions, want %d: %v", filter, status, len(got), len(expect), list)
		}
		for i, w := range expect {
			if got[i]["transactionId"] != w.id || got[i]["transactionType"] != w.kind {
				t.Fatalf("type=%s: transaction %d is %v, want %s %s", filter, i, got[i], w.kind, w.id)
			}
		}
	}
	_, one := e.call("GET /sandbox/transactions?type=", "", nil, nil)
	if first := one["transactions"].([]any)[0].(map[string]any); first["status"] != "PAID" || first["external_id"] != "order-1" || first["endToEndId"] == "" {
		t.Fatalf("the charge in the list: %v", first)
	}
	status, body := e.call("GET /sandbox/transactions?type=WITHDRAWAL", "", nil, nil)
	if status != http.StatusUnprocessableEntity || body["errors"].(map[string]any)["type"] == nil {
		t.Fatalf("unknown type: %d %v, want 422 naming type", status, body)
	}
}
