package api

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/pixgate/pixgate/storage/money"
)

// subAccount creates a sub-account of the integrator of token over v1 and
// returns its id and its own v1 token.
func (e *env) subAccount(token, name string) (id, subToken string) {
	e.t.Helper()
	r := e.call(http.MethodPost, "/api/v1/sub-accounts", token,
		`{"name": "`+name+`", "email": "`+strings.ToLower(strings.ReplaceAll(name, " ", "."))+`@loja.example"}`).expect(e.t, http.StatusCreated)
	if r.str("id") == "" || r.str("credentials.token") == "" || r.get("balance.available_balance") != "0.00" {
		e.t.Fatalf("sub-account: %s", r.raw)
	}
	return r.str("id"), r.str("credentials.token")
}

func splitOf(recipients ...string) string {
	return `{"recipients": [` + strings.Join(recipients, ", ") + `]}`
}

// A split names its problems member by member, and names sub-accounts of
// the integrator only: another integrator's sub-account is as unknown as
// one that does not exist. Nothing is written.
func TestSplitIsRefusedNamingTheMember(t *testing.T) {
	e := newEnv(t)
	_, token := e.integrator("Loja Mae", money.Fixed(50), money.Fixed(50))
	_, otherToken := e.integrator("Outra Loja", money.Fixed(50), money.Fixed(50))
	a, _ := e.subAccount(token, "Vendedor A")
	b, _ := e.subAccount(token, "Vendedor B")
	foreign, _ := e.subAccount(otherToken, "Vendedor Alheio")
	r := func(id, share string) string { return `{"sub_account": "` + id + `", ` + share + `}` }
	tests := []struct {
		name, split, field string
	}{
		{"another integrator's sub-account", splitOf(r(a, `"percent": 10`), r(foreign, `"percent": 10`)), "split.recipients[1].sub_account"},
		{"an id that is no account", splitOf(r("999999999", `"percent": 10`)), "split.recipients[0].sub_account"},
		{"the integrator itself", splitOf(r("1", `"percent": 10`)), "split.recipients[0].sub_account"},
		{"percentages over 100", splitOf(r(a, `"percent": 60`), r(b, `"percent": "40.0001"`)), "split.recipients[1].percent"},
		{"amounts over the net", splitOf(r(a, `"amount": 10.00`), r(b, `"amount": 5.01`)), "split.recipients[1].amount"}, // 15.50 - 0.50
		{"gross percent over the net", `{"base": "gross", "recipients": [` + r(a, `"percent": 100`) + `]}`, "split.recipients[0].percent"},
		{"percent and amount", splitOf(r(a, `"percent": 10, "amount": 1.00`)), "split.recipients[0].amount"},
		{"neither", splitOf(`{"sub_account": "` + a + `"}`), "split.recipients[0].percent"},
		{"negative percent", splitOf(r(a, `"percent": -10`)), "split.recipients[0].percent"},
		{"zero percent", splitOf(r(a, `"percent": 0`)), "split.recipients[0].percent"},
		{"five decimals", splitOf(r(a, `"percent": 12.00001`)), "split.recipients[0].percent"},
		{"negative amount", splitOf(r(a, `"amount": -1.00`)), "split.recipients[0].amount"},
		{"amount with 3 decimals", splitOf(r(a, `"amount": 1.001`)), "split.recipients[0].amount"},
		{"amount as string", splitOf(r(a, `"amount": "1.00"`)), "split.recipients[0].amount"},
		{"duplicate", splitOf(r(a, `"percent": 10`), r(a, `"percent": 10`)), "split.recipients[1].sub_account"},
		{"sub_account a number", splitOf(`{"sub_account": 5, "percent": 10}`), "split.recipients[0].sub_account"},
		{"fee_bearer under net", splitOf(r(a, `"percent": 10, "fee_bearer": true`)), "split.recipients[0].fee_bearer"},
		{"unknown base", `{"base": "liquido", "recipients": [` + r(a, `"percent": 10`) + `]}`, "split.base"},
		{"misspelt member", splitOf(r(a, `"percentage": 10`)), "split.recipients[0].percentage"},
		{"no recipients", `{"recipients": []}`, "split.recipients"},
		{"recipients an object", `{"recipients": {}}`, "split.recipients"},
		{"a recipient not an object", `{"recipients": [1]}`, "split.recipients[0]"},
		{"not an object", `[]`, "split"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := e.on(t)
			resp := e.call(http.MethodPost, "/api/v1/charges", token, validCharge(map[string]string{"split": tt.split})).
				expectError(t, http.StatusUnprocessableEntity, codeValidation)
			if _, ok := resp.fieldErrors()[tt.field]; !ok {
				t.Fatalf("errors do not name %s: %s", tt.field, resp.raw)
			}
		})
	}
	if n := e.count(`SELECT count(*) FROM charges`); n != 0 {
		t.Fatalf("%d charges written by refused splits", n)
	}
}

// A split charge paid credits each recipient its part in the same posting
// as the integrator's; a partial refund takes back each part pro rata; a
// refund a recipient cannot cover is refused whole. Each parent sees only
// its sub-accounts, and a sub-account's key reads nothing of its parent's.
func TestSplitChargeIsExecutedAndIsolated(t *testing.T) {
	e := newEnv(t)
	parent, token := e.integrator("Loja Marketplace", money.Fixed(100), money.Fixed(0))
	_, otherToken := e.integrator("Outra Loja", money.Fixed(50), money.Fixed(50))
	a, aToken := e.subAccount(token, "Vendedor Um")
	b, bToken := e.subAccount(token, "Vendedor Dois")
	body := validCharge(map[string]string{"amount": "101.00", "split": `{"base": "net", "recipients": [
		{"sub_account": "` + a + `", "percent": "33.33"}, {"sub_account": "` + b + `", "amount": 20.00}]}`})
	ch := e.call(http.MethodPost, "/api/v1/charges", token, body).expect(t, http.StatusCreated)
	want := `"split":{"base":"net","recipients":[{"percent":33.33,"fee_bearer":false,"sub_account":"` + a + `"},{"amount":20.00,"fee_bearer":false,"sub_account":"` + b + `"}]}`
	if !strings.Contains(ch.raw, want) { // jsonb's order of members
		t.Fatalf("split not shown canonically: %s", ch.raw)
	}
	e.markPaid(parent.ID, ch.str("pix_id"))
	// net 100.00: A 33.33, B 20.00, the integrator 46.67.
	balance := func(tok string) string {
		return e.call(http.MethodGet, "/api/v1/balance", tok, nil).expect(t, http.StatusOK).get("available_balance").(string)
	}
	if got := [3]string{balance(token), balance(aToken), balance(bToken)}; got != [3]string{"46.67", "33.33", "20.00"} {
		t.Fatalf("balances after payment: %v", got)
	}
	// A quarter refunded (25.25 of 101.00): A gives back 8.33, B 5.00.
	e.call(http.MethodPost, "/api/v1/charges/"+ch.str("id")+"/refunds", token, `{"amount": 25.25}`).expect(t, http.StatusCreated)
	if got := [3]string{balance(token), balance(aToken), balance(bToken)}; got != [3]string{"34.75", "25.00", "15.00"} {
		t.Fatalf("balances after a quarter refunded: %v", got)
	}
	// B spends its balance; a refund taking back its part is refused whole.
	if _, err := e.db.DebitWallet(t.Context(), mustID(t, b), money.FromReais(15, 0), "spent"); err != nil {
		t.Fatal(err)
	}
	r := e.call(http.MethodPost, "/api/v1/charges/"+ch.str("id")+"/refunds", token, `{"amount": 10.00}`).
		expectError(t, http.StatusUnprocessableEntity, codeInsufficientFunds)
	if !strings.Contains(r.str("message"), "sub-account "+b) {
		t.Fatalf("the refusal names the sub-account: %s", r.raw)
	}
	if got := [3]string{balance(token), balance(aToken), balance(bToken)}; got != [3]string{"34.75", "25.00", "0.00"} {
		t.Fatalf("a refused refund moved money: %v", got)
	}

	// Isolation.
	list := e.call(http.MethodGet, "/api/v1/sub-accounts", token, nil).expect(t, http.StatusOK)
	if len(list.data()) != 2 || list.data()[0]["id"] != a {
		t.Fatalf("the parent's sub-accounts: %s", list.raw)
	}
	if one := e.call(http.MethodGet, "/api/v1/sub-accounts/"+a, token, nil).expect(t, http.StatusOK); one.get("balance.available_balance") != "25.00" {
		t.Fatalf("a sub-account's balance: %s", one.raw)
	}
	e.call(http.MethodGet, "/api/v1/sub-accounts/"+a, otherToken, nil).expectError(t, http.StatusNotFound, codeNotFound)
	if l := e.call(http.MethodGet, "/api/v1/sub-accounts", otherToken, nil).expect(t, http.StatusOK); len(l.data()) != 0 {
		t.Fatalf("another integrator sees %s", l.raw)
	}
	e.call(http.MethodGet, "/api/v1/charges/"+ch.str("id"), aToken, nil).expectError(t, http.StatusNotFound, codeNotFound)
	if l := e.call(http.MethodGet, "/api/v1/charges", aToken, nil).expect(t, http.StatusOK); len(l.data()) != 0 {
		t.Fatalf("a sub-account lists its parent's charges: %s", l.raw)
	}
	e.call(http.MethodGet, "/api/v1/sub-accounts/"+b, aToken, nil).expectError(t, http.StatusNotFound, codeNotFound)
	e.call(http.MethodPost, "/api/v1/sub-accounts", aToken, `{"name": "Neto", "email": "neto@loja.example"}`).
		expectError(t, http.StatusForbidden, codeForbidden)
	e.call(http.MethodPost, "/api/v1/sub-accounts", token, `{"name": "Vendedor Um", "email": "vendedor.um@loja.example"}`).
		expectError(t, http.StatusConflict, codeIdempotency)
	if v, err := e.db.Audit(t.Context()); err != nil || len(v) > 0 {
		t.Fatalf("audit %v %v", v, err)
	}
}

func mustID(t *testing.T, s string) int64 {
	t.Helper()
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return id
}
