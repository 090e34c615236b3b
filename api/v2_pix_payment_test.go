package api

import (
	"net/http"
	"strings"
	"testing"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

// A payment's transactionId exists from the first answer on, and
// consult-transaction finds it by that id before the provider has seen it.
func TestV2Payment(t *testing.T) {
	e := newEnv(t)
	in, v1 := e.integrator("Loja Saque V2", money.Percent(0), money.Fixed(50))
	e.fund(in.ID, money.FromReais(100, 0))
	token := e.accessToken(v1)

	body := `{"amount": 25.10, "external_id": "saque-9", "description": "Repasse",
		"creditParty": {"name": "Beltrano", "keyType": "telefone", "key": "(11) 99876-5432", "taxId": "529.982.247-25"}}`
	r := e.v2("/v2/pix/payment", token, body).expect(t, http.StatusOK).noNull(t)
	pixID := r.str("transactionId")
	w, err := e.db.Transfer(t.Context(), storage.KindWithdrawal, in.ID, "saque-9")
	if err != nil || pixID != strings.ReplaceAll(w.ID.String(), "-", "") || r.str("status") != "PROCESSING" ||
		r.str("external_id") != "saque-9" || r.get("amount") != "25.10" || r.str("description") != "Repasse" ||
		r.str("creditParty.keyType") != "PHONE" || r.str("creditParty.key") != "+5511998765432" || r.str("creditParty.taxId") != validCPF {
		t.Fatalf("payment answer %s (withdrawal %v, %v)", r.raw, w.ID, err)
	}
	if wl := e.wallet(in.ID); wl.Reserved != 2560 || wl.Available != 10000-2560 {
		t.Fatalf("wallet %+v, want 25.10 + 0.50 reserved", wl)
	}
	c := e.v2("/v2/consult-transaction", token, map[string]any{"pix_id": pixID}).expect(t, http.StatusOK).noNull(t)
	if c.str("requestBody.transactionType") != "PAYMENT" || c.str("requestBody.transactionId") != pixID ||
		c.str("requestBody.status") != "PROCESSING" || c.str("requestBody.creditParty.key") != "+5511998765432" {
		t.Fatalf("consult %s", c.raw)
	}
	if e.sb.Stats().Requests["/v2/pix/payment"] != 0 {
		t.Fatal("the API called the provider; sending is the worker's job")
	}

	// A replay is the same payment; v1 sees the same pix_id.
	again := e.v2("/v2/pix/payment", token, body).expect(t, http.StatusOK)
	v1View := e.call(http.MethodGet, "/api/v1/withdrawals/saque-9", v1, nil).expect(t, http.StatusOK)
	if again.str("transactionId") != pixID || v1View.str("pix_id") != pixID {
		t.Fatalf("replay %s, v1 %s", again.raw, v1View.raw)
	}
	e.v2("/v2/pix/payment", token, strings.Replace(body, "25.10", "99999", 1)).expectError(t, http.StatusConflict, codeIdempotency)
	e.v2("/v2/pix/payment", token, strings.Replace(body, `"saque-9"`, `"saque-10"`, 1)+"").expect(t, http.StatusOK)
	r = e.v2("/v2/pix/payment", token, strings.Replace(strings.Replace(body, `"saque-9"`, `"saque-11"`, 1), "25.10", "90", 1)).
		expectError(t, http.StatusUnprocessableEntity, codeInsufficientFunds)
	if _, ok := r.fieldErrors()["amount"]; !ok {
		t.Fatalf("insufficient funds does not name amount: %s", r.raw)
	}
}
