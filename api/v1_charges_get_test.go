package api

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/pixgate/pixgate/storage/money"
)

func TestGetCharge(t *testing.T) {
	e := newEnv(t)
	_, token := e.integrator("Loja Dona", money.Percent(15000), money.Fixed(50))
	_, otherToken := e.integrator("Loja Alheia", money.Percent(15000), money.Fixed(50))
	created := e.call(http.MethodPost, "/api/v1/charges", token, validCharge(map[string]string{"external_id": `"pedido/77#a"`})).expect(t, 201)
	id := created.str("id")

	for _, ref := range []string{id, url.PathEscape("pedido/77#a")} {
		got := e.call(http.MethodGet, "/api/v1/charges/"+ref, token, nil).expect(t, 200)
		if got.raw != created.raw {
			t.Fatalf("GET %s:\n%s\nwant\n%s", ref, got.raw, created.raw)
		}
	}
	// Another integrator's charge does not exist for them, by either reference.
	for _, ref := range []string{id, url.PathEscape("pedido/77#a")} {
		e.call(http.MethodGet, "/api/v1/charges/"+ref, otherToken, nil).expectError(t, 404, codeNotFound)
	}
	e.call(http.MethodGet, "/api/v1/charges/01900000-0000-7000-8000-000000000000", token, nil).expectError(t, 404, codeNotFound)
	e.call(http.MethodGet, "/api/v1/charges/%25zz", token, nil).expectError(t, 404, codeNotFound)
}
