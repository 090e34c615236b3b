package api

import (
	"net/http"
	"testing"

	"github.com/pixgate/pixgate/storage/money"
)

func TestV2ConsultRefusals(t *testing.T) {
	e := newEnv(t)
	in, v1 := e.integrator("Loja Consulta", money.Percent(0), money.Fixed(0))
	_, otherV1 := e.integrator("Loja Alheia", money.Percent(0), money.Fixed(0))
	token := e.accessToken(v1)
	pixID := e.paidV2Charge(in.ID, token, "pedido-1", "10")
	e.v2("/v2/consult-transaction", e.accessToken(otherV1), map[string]any{"pix_id": pixID}).expectError(t, http.StatusNotFound, codeNotFound)
	e.v2("/v2/consult-transaction", token, map[string]any{"pix_id": "pedido-1"}).expectError(t, http.StatusNotFound, codeNotFound)
	for _, body := range []string{`{}`, `{"pix_id": ""}`, `{"pix_id": 12}`, `{"pix_id": "a\u0000b"}`} {
		r := e.v2("/v2/consult-transaction", token, body).expectError(t, http.StatusUnprocessableEntity, codeValidation)
		if _, ok := r.fieldErrors()["pix_id"]; !ok {
			t.Errorf("%s: errors do not name pix_id: %s", body, r.raw)
		}
	}
	e.v2("/v2/consult-transaction", token, `[]`).expectError(t, http.StatusBadRequest, codeMalformedJSON)
}

// Each /v2 PIX route needs its scope.
func TestV2Scopes(t *testing.T) {
	e := newEnv(t)
	in, _ := e.integrator("Loja Escopo", money.Percent(0), money.Fixed(0))
	_, creds, err := e.db.CreateKey(t.Context(), newReadOnlyKey(in.ID))
	if err != nil {
		t.Fatal(err)
	}
	token := e.accessToken(creds.Token())
	for _, path := range []string{"/v2/pix/qrcode", "/v2/pix/payment", "/v2/pix/refund"} {
		e.v2(path, token, `{}`).expectError(t, http.StatusForbidden, codeForbidden)
	}
	e.v2("/v2/consult-transaction", token, map[string]any{"pix_id": "x"}).expectError(t, http.StatusNotFound, codeNotFound)
}
