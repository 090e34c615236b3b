package api

import (
	"context"
	"net/http"
	"testing"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

// v1 refunds: a paid charge named in the path, by id or external_id, is
// refunded in part with the cash-out fee reserved; the same request again is
// the same refund, on v1 and on v2; the charge lists its refunds.
func TestV1Refunds(t *testing.T) {
	e := newEnv(t)
	in, token := e.integrator("Loja Devolve", money.Percent(0), money.Fixed(50))
	charge := e.call(http.MethodPost, "/api/v1/charges", token, validCharge(nil)).expect(t, http.StatusCreated)
	path := "/api/v1/charges/" + charge.str("id") + "/refunds"

	// Not paid yet: refused naming the charge.
	r := e.call(http.MethodPost, path, token, `{"amount": 5}`).expectError(t, http.StatusUnprocessableEntity, codeValidation)
	if r.str("message") != "charge must be PAID; this one is PENDING" {
		t.Fatalf("refund of a pending charge: %s", r.raw)
	}
	e.markPaid(in.ID, charge.str("pix_id"))

	body := `{"amount": 5.00, "external_id": "devolucao-1", "description": "Produto devolvido"}`
	f := e.call(http.MethodPost, path, token, body).expect(t, http.StatusCreated)
	if f.get("amount") != "5.00" || f.get("fee") != "0.50" || f.get("total") != "5.50" || f.str("status") != "PROCESSING" ||
		f.str("charge_id") != charge.str("id") || f.str("charge_pix_id") != charge.str("pix_id") || len(f.str("pix_id")) != 32 ||
		f.str("external_id") != "devolucao-1" || f.str("description") != "Produto devolvido" {
		t.Fatalf("refund %s", f.raw)
	}
	bal := e.call(http.MethodGet, "/api/v1/balance", token, nil).expect(t, http.StatusOK)
	if bal.get("available_balance") != "10.00" || bal.get("reserved_balance") != "5.50" { // 15.50 paid, 5.50 reserved
		t.Fatalf("a refund reserves amount + the cash-out fee: %s", bal.raw)
	}
	// A replay, by the charge's external_id this time, and through v2.
	again := e.call(http.MethodPost, "/api/v1/charges/order-1001/refunds", token, body).expect(t, http.StatusOK)
	v2 := e.v2("/v2/pix/refund", e.accessToken(token), map[string]any{"pix_id": charge.str("pix_id"), "amount": 5,
		"external_id": "devolucao-1", "description": "Produto devolvido"}).expect(t, http.StatusOK)
	if again.str("id") != f.str("id") || v2.str("transactionId") != f.str("pix_id") {
		t.Fatalf("replays: v1 %s, v2 %s; want %s", again.raw, v2.raw, f.raw)
	}
	e.call(http.MethodPost, path, token, `{"amount": 6, "external_id": "devolucao-1"}`).expectError(t, http.StatusConflict, codeIdempotency)
	r = e.call(http.MethodPost, path, token, `{"amount": 10.51}`).expectError(t, http.StatusUnprocessableEntity, codeValidation)
	if _, ok := r.fieldErrors()["amount"]; !ok {
		t.Fatalf("more than is left: %s", r.raw)
	}
	e.call(http.MethodPost, path, token, `{"amount": 10}`).expectError(t, http.StatusUnprocessableEntity, codeInsufficientFunds)

	list := e.call(http.MethodGet, path+"?status=processing", token, nil).expect(t, http.StatusOK)
	if len(list.data()) != 1 || list.data()[0]["id"] != f.str("id") {
		t.Fatalf("the charge's refunds: %s", list.raw)
	}
	e.call(http.MethodGet, path+"?page=2", token, nil).expectError(t, http.StatusUnprocessableEntity, codeValidation)
	if n := e.count(`SELECT count(*) FROM refunds`); n != 1 {
		t.Fatalf("%d refunds, want 1", n)
	}
}

// Another integrator's charge is not found, whatever the key may do; the
// key needs refunds:write to refund and charges:read to list.
func TestV1RefundsScopesAndOwnership(t *testing.T) {
	e := newEnv(t)
	in, token := e.integrator("Loja Dona", money.Percent(0), money.Fixed(0))
	e.fund(in.ID, money.FromReais(10, 0))
	charge := e.call(http.MethodPost, "/api/v1/charges", token, validCharge(nil)).expect(t, http.StatusCreated)
	e.markPaid(in.ID, charge.str("pix_id"))
	path := "/api/v1/charges/" + charge.str("id") + "/refunds"

	_, other := e.integrator("Loja Alheia", money.Percent(0), money.Fixed(0))
	e.call(http.MethodPost, path, other, `{"amount": 1}`).expectError(t, http.StatusNotFound, codeNotFound)
	e.call(http.MethodGet, path, other, nil).expectError(t, http.StatusNotFound, codeNotFound)
	e.call(http.MethodPost, "/api/v1/charges/nope/refunds", token, `{"amount": 1}`).expectError(t, http.StatusNotFound, codeNotFound)

	key := func(scopes ...string) string {
		_, k, err := e.db.CreateKey(context.Background(), storage.NewKey{IntegratorID: in.ID, Scopes: scopes})
		if err != nil {
			t.Fatal(err)
		}
		return k.Token()
	}
	readOnly := key(storage.ScopeChargesRead)
	e.call(http.MethodPost, path, readOnly, `{"amount": 1}`).expectError(t, http.StatusForbidden, codeForbidden)
	e.call(http.MethodGet, path, readOnly, nil).expect(t, http.StatusOK)
	refundOnly := key(storage.ScopeRefundsWrite)
	e.call(http.MethodPost, path, refundOnly, `{"amount": 1}`).expect(t, http.StatusCreated)
	e.call(http.MethodGet, path, refundOnly, nil).expectError(t, http.StatusForbidden, codeForbidden)
	e.call(http.MethodPost, path, token, `{"amount": 1}`, "Content-Type", "text/plain").
		expectError(t, http.StatusUnsupportedMediaType, codeUnsupportedMedia)
}
