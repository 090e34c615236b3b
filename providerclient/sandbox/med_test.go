package sandbox

import (
	"errors"
	"net/http"
	"testing"

	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/storage/money"
)

// An infraction opens on a paid charge, reads by consult-transaction, and
// closes once; agreed, the sandbox returns the money itself, once, as a
// MED_RETURN that settles like a refund.
func TestInfractionLifecycle(t *testing.T) {
	e := newEnv(t, Config{})
	charge := e.paidCharge("100.00")
	if _, err := e.sb.OpenInfraction("nope", 0, ""); !errors.Is(err, ErrNotFound) {
		t.Fatalf("infraction on an unknown charge: %v", err)
	}
	status, opened := e.call("/sandbox/charges/"+charge+"/infraction", "", map[string]any{"amount": 60, "reason": "golpe do falso vendedor"}, nil)
	if status != http.StatusOK || opened["transactionType"] != contract.TypeInfraction || opened["status"] != contract.StatusOpen ||
		opened["pix_id"] != charge || num(opened["amount"]) != "60.00" || opened["dueDate"] == "" {
		t.Fatalf("open: %d %v", status, opened)
	}
	id := opened["transactionId"].(string)
	if _, read := e.post("/v2/consult-transaction", map[string]any{"pix_id": id}); read["requestBody"].(map[string]any)["status"] != contract.StatusOpen {
		t.Fatalf("consult: %v", read)
	}
	before := e.sb.Balance()
	status, closed := e.call("/sandbox/infractions/"+id+"/close", "", map[string]any{"result": "agreed", "analysis": "procedente"}, nil)
	if status != http.StatusOK || closed["status"] != contract.StatusAgreed || closed["returnTransactionId"] == nil {
		t.Fatalf("close: %d %v", status, closed)
	}
	if status, _ := e.call("/sandbox/infractions/"+id+"/close", "", map[string]any{"result": "DISAGREED"}, nil); status != http.StatusConflict {
		t.Fatalf("second close: %d, want 409", status)
	}
	ret := closed["returnTransactionId"].(string)
	waitFor(t, "the MED return to settle", func() bool {
		got, _ := e.sb.Transaction(ret)
		return got.Status == contract.StatusCompleted
	})
	got, _ := e.sb.Transaction(ret)
	if got.TransactionType != contract.TypeMedReturn || got.Amount != money.FromReais(60, 0) || got.PixID != charge || got.EndToEndID[0] != 'D' {
		t.Fatalf("MED return: %+v", got)
	}
	if after := e.sb.Balance(); before.Available-after.Available != money.FromReais(60, 0) || after.Pending != 0 {
		t.Fatalf("balance %+v → %+v, want 60.00 less available", before, after)
	}
	// What is left of the charge can still be refunded, no more.
	if status, _ := e.post("/v2/pix/refund", map[string]any{"pix_id": charge, "amount": 40.01}); status != http.StatusUnprocessableEntity {
		t.Fatalf("refund beyond what the MED return left: %d", status)
	}
}

// Disagreed or cancelled, nothing moves.
func TestInfractionDisagreedMovesNothing(t *testing.T) {
	e := newEnv(t, Config{})
	charge := e.paidCharge("10.00")
	opened, err := e.sb.OpenInfraction(charge, 0, "")
	if err != nil || opened.Amount != money.FromReais(10, 0) {
		t.Fatalf("open: %+v %v", opened, err)
	}
	before := e.sb.Balance()
	closed, err := e.sb.CloseInfraction(opened.TransactionID, "DISAGREED", "")
	if err != nil || closed.Status != contract.StatusDisagreed || closed.ReturnTransactionID != "" || e.sb.Balance() != before {
		t.Fatalf("close: %+v %v, balance %+v → %+v", closed, err, before, e.sb.Balance())
	}
	if _, err := e.sb.CloseInfraction(opened.TransactionID, "maybe", ""); err == nil {
		t.Fatal("a result that is not AGREED, DISAGREED or CANCELLED was taken")
	}
}

// The directory answers the same for the same key, every time, and keeps
// keys that do not exist and keys marked for fraud; a PIX to either is
// refused.
func TestDirectory(t *testing.T) {
	tests := []struct {
		keyType, key string
		found, fraud bool
		holder       string // "" any derived one
	}{
		{"CPF", "529.982.247-25", true, false, "52998224725"},
		{"CNPJ", "11222333000181", true, false, "11222333000181"},
		{"EMAIL", "cliente@example.com", true, false, ""},
		{"EMAIL", "inexistente@example.com", false, false, ""},
		{"EMAIL", "fraude@example.com", true, true, ""},
		{"PHONE", "+5511998760000", false, false, ""},
		{"PHONE", "+5511998766666", true, true, ""},
		{"EVP", "00000000-1111-4222-8333-444444444444", false, false, ""},
		{"EVP", "deadbeef-1111-4222-8333-444444444444", true, true, ""},
		{"CPF", "00000000191", false, false, ""},
		{"CPF", "11144477735", true, true, "11144477735"},
	}
	e := newEnv(t, Config{})
	for _, tt := range tests {
		got, err := LookupKey(tt.keyType, tt.key)
		if (err == nil) != tt.found || got.FraudMarked != tt.fraud {
			t.Errorf("%s %s: %+v, %v", tt.keyType, tt.key, got, err)
			continue
		}
		again, _ := LookupKey(tt.keyType, tt.key)
		if again != got || (tt.found && (got.Name == "" || got.ISPB == "" || len(got.TaxID) < 11)) || (tt.holder != "" && got.TaxID != tt.holder) {
			t.Errorf("%s %s: %+v then %+v", tt.keyType, tt.key, got, again)
		}
		status, body := e.post(contract.PathKeyLookup, map[string]any{"key": tt.key, "keyType": tt.keyType})
		if (status == http.StatusOK) != tt.found || (tt.found && body["taxId"] != got.TaxID) {
			t.Errorf("%s %s over HTTP: %d %v", tt.keyType, tt.key, status, body)
		}
		pay := map[string]any{"amount": 1, "creditParty": map[string]any{"name": "X", "keyType": tt.keyType, "key": tt.key, "taxId": "52998224725"}}
		if status, _ := e.post("/v2/pix/payment", pay); (status == http.StatusOK) != (tt.found && !tt.fraud) {
			t.Errorf("%s %s: a PIX answered %d", tt.keyType, tt.key, status)
		}
	}
}
