package sandbox

import (
	"encoding/json"
	"regexp"
	"sync"
	"testing"

	"github.com/pixgate/pixgate/providerclient/contract"
)

var endToEndPattern = regexp.MustCompile(`^[ED]99999999\d{12}[a-zA-Z0-9]{11}$`)

func TestPaymentSettlesAndNotifies(t *testing.T) {
	e := newEnv(t, Config{})
	// Settlement waits for the control below, so the balance while
	// processing is read however slowly the test runs.
	e.sb.SetFaults(Faults{ManualSettle: true})
	rc := newReceiver(t, 0)
	before := e.sb.Balance()
	req := validPayment("wd-1")
	req["postbackUrl"] = rc.url()
	status, body := e.post("/v2/pix/payment", req)
	if status != 200 || body["status"] != "PROCESSING" || num(body["amount"]) != "10.50" ||
		!transactionIDPattern.MatchString(body["transactionId"].(string)) || body["external_id"] != "wd-1" || body["description"] != "saque" {
		t.Fatalf("payment answer %d %v", status, body)
	}
	cp := body["creditParty"].(map[string]any)
	if cp["key"] != "52998224725" || cp["keyType"] != "CPF" || cp["taxId"] != "52998224725" || cp["name"] != "Fulano" {
		t.Fatalf("creditParty %v", cp)
	}
	if b := e.sb.Balance(); b.Available != before.Available-1050 || b.Pending != 1050 || b.Balance != before.Balance {
		t.Fatalf("balance while processing %+v", b)
	}
	if status, settled := e.call("/sandbox/transactions/"+body["transactionId"].(string)+"/settle", "", nil, nil); status != 200 || settled["status"] != "COMPLETED" {
		t.Fatalf("settle: %d %v", status, settled)
	}
	waitFor(t, "the PAYMENT notification", func() bool { return len(rc.bodies()) == 1 })
	n := rc.bodies()[0]
	sc, _ := n["statusCode"].(map[string]any)
	if n["transactionType"] != "PAYMENT" || n["status"] != "COMPLETED" || n["transactionId"] != body["transactionId"] ||
		n["external_id"] != "wd-1" || num(n["amount"]) != "10.50" || num(sc["statusId"]) != "1" ||
		!endToEndPattern.MatchString(n["endToEndId"].(string)) || n["endToEndId"].(string)[0] != 'E' ||
		!datePattern.MatchString(n["dateApproval"].(string)) {
		t.Fatalf("notification %v", n)
	}
	if b := e.sb.Balance(); b.Available != before.Available-1050 || b.Pending != 0 || b.Balance != before.Balance-1050 {
		t.Fatalf("balance after settlement %+v", b)
	}
	_, c := e.post("/v2/consult-transaction", map[string]any{"pix_Id": body["transactionId"]})
	if rb := c["requestBody"].(map[string]any); rb["status"] != "COMPLETED" || rb["endToEndId"] != n["endToEndId"] {
		t.Fatalf("consult %v", c)
	}
}

func TestPaymentFailKeys(t *testing.T) {
	e := newEnv(t, Config{})
	rc := newReceiver(t, 0)
	e.sb.SetFaults(Faults{FailKeys: []string{"(11) 99876-5432"}})
	before := e.sb.Balance()
	req := validPayment("wd-fail")
	req["postbackUrl"] = rc.url()
	req["creditParty"] = map[string]any{"name": "Fulano", "keyType": "telefone", "key": "+5511998765432", "taxId": "52998224725"}
	_, body := e.post("/v2/pix/payment", req)
	waitFor(t, "the FAILED notification", func() bool { return len(rc.bodies()) == 1 })
	n := rc.bodies()[0]
	if sc := n["statusCode"].(map[string]any); n["status"] != "FAILED" || num(sc["statusId"]) != "3" || n["dateApproval"] != nil {
		t.Fatalf("notification %v", n)
	}
	if b := e.sb.Balance(); b != before {
		t.Fatalf("a failed payment moved money: %+v → %+v", before, b)
	}
	// Another key still completes.
	_, ok := e.post("/v2/pix/payment", validPayment("wd-ok"))
	waitFor(t, "settlement", func() bool {
		tx, _ := e.sb.Transaction(ok["transactionId"].(string))
		return tx.Status == contract.StatusCompleted
	})
	if tx, _ := e.sb.Transaction(body["transactionId"].(string)); tx.FailureReason == "" {
		t.Fatalf("failed payment without a reason: %+v", tx)
	}
}

func TestPaymentValidation(t *testing.T) {
	e := newEnv(t, Config{})
	party := func(keyType, key, taxID string) map[string]any {
		return map[string]any{"amount": 1, "creditParty": map[string]any{"name": "F", "keyType": keyType, "key": key, "taxId": taxID}}
	}
	tests := []struct {
		name  string
		body  map[string]any
		field string
	}{
		{"no creditParty", map[string]any{"amount": 1}, "creditParty"},
		{"no name", map[string]any{"amount": 1, "creditParty": map[string]any{"keyType": "CPF", "key": "52998224725", "taxId": "52998224725"}}, "creditParty.name"},
		{"bad key type", party("RG", "1", "52998224725"), "creditParty.keyType"},
		{"bad CPF key", party("CPF", "52998224724", "52998224725"), "creditParty.key"},
		{"bad CNPJ key", party("CNPJ", "11222333000182", "52998224725"), "creditParty.key"},
		{"bad email key", party("EMAIL", "fulano@", "52998224725"), "creditParty.key"},
		{"bad phone key", party("PHONE", "123", "52998224725"), "creditParty.key"},
		{"bad EVP key", party("EVP", "not-a-uuid", "52998224725"), "creditParty.key"},
		{"bad taxId", party("EVP", "123e4567-e89b-12d3-a456-426614174000", "11111111111"), "creditParty.taxId"},
		{"bad amount", map[string]any{"amount": json.Number("0.001"), "creditParty": party("CPF", "52998224725", "52998224725")["creditParty"]}, "amount"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := e.post("/v2/pix/payment", tt.body)
			errs, _ := body["errors"].(map[string]any)
			if status != 422 || errs[tt.field] == nil {
				t.Fatalf("status %d, errors %v; want 422 on %s", status, body, tt.field)
			}
		})
	}
	aliases := []struct{ keyType, key, wantType, wantKey string }{
		{"aleatoria", "123E4567-E89B-12D3-A456-426614174000", "EVP", "123e4567-e89b-12d3-a456-426614174000"},
		{"CHAVE_ALEATORIA", "123e4567-e89b-12d3-a456-426614174000", "EVP", "123e4567-e89b-12d3-a456-426614174000"},
		{"random", "123e4567-e89b-12d3-a456-426614174000", "EVP", "123e4567-e89b-12d3-a456-426614174000"},
		{"telefone", "(11) 99876-5432", "PHONE", "+5511998765432"},
		{"email", "Fulano@Example.com", "EMAIL", "fulano@example.com"},
		{"cnpj", "12.abc.345/01de-35", "CNPJ", "12ABC34501DE35"},
	}
	for _, a := range aliases {
		status, body := e.post("/v2/pix/payment", party(a.keyType, a.key, "11.222.333/0001-81"))
		cp, _ := body["creditParty"].(map[string]any)
		if status != 200 || cp["keyType"] != a.wantType || cp["key"] != a.wantKey || cp["taxId"] != "11222333000181" {
			t.Fatalf("%s %q: %d %v", a.keyType, a.key, status, body)
		}
	}
}

func TestPaymentInsufficientBalance(t *testing.T) {
	e := newEnv(t, Config{InitialBalance: 1000})
	req := validPayment("too-much")
	req["amount"] = json.Number("10.01")
	if status, body := e.post("/v2/pix/payment", req); status != 422 || body["message"] != "insufficient balance" {
		t.Fatalf("%d %v", status, body)
	}
}

// Many concurrent payments with one external_id pay once and all answer
// with the same transaction.
func TestPaymentConcurrentSameExternalID(t *testing.T) {
	e := newEnv(t, Config{})
	const n = 50
	ids := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, body := e.post("/v2/pix/payment", validPayment("same-id"))
			ids[i], _ = body["transactionId"].(string)
		}()
	}
	wg.Wait()
	for i := range ids {
		if ids[i] == "" || ids[i] != ids[0] {
			t.Fatalf("answer %d has transactionId %q, first %q", i, ids[i], ids[0])
		}
	}
	if got := e.sb.Stats().PaymentsCreated; got != 1 {
		t.Fatalf("payments created %d, want 1", got)
	}
	if b := e.sb.Balance(); b.Available != DefaultInitialBalance-1050 {
		t.Fatalf("balance %+v: more than one payment left the account", b)
	}
}
