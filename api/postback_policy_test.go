package api

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/pixgate/pixgate/storage/money"
)

// The API applies the delivery's address policy when a postbackUrl is
// given, so an integrator learns at creation that it would never be called.
func TestPostbackURLPolicyAppliesAtCreation(t *testing.T) {
	refusePrivate := func(s *setup) {
		s.cfg.PostbackURLPolicy = func(_ context.Context, raw string) error {
			if strings.Contains(raw, "127.0.0.1") || strings.Contains(raw, "169.254.169.254") {
				return errors.New("private")
			}
			return nil
		}
	}
	e := newEnv(t, refusePrivate)
	in, token := e.integrator("Loja", money.Percent(0), money.Fixed(0))
	e.fund(in.ID, 10000)
	payer := map[string]any{"name": "Fulano", "document": "52998224725"}
	party := map[string]any{"name": "Fulano", "keyType": "CPF", "key": "52998224725", "taxId": "52998224725"}
	for _, u := range []string{"https://127.0.0.1/hook", "https://169.254.169.254/latest/meta-data"} {
		r := e.call(http.MethodPost, "/api/v1/charges", token, map[string]any{"amount": 10, "payer": payer, "postbackUrl": u})
		r.expectError(t, http.StatusUnprocessableEntity, codeValidation)
		if _, ok := r.fieldErrors()["postbackUrl"]; !ok {
			t.Fatalf("charge with %s: errors %v do not name postbackUrl", u, r.fieldErrors())
		}
		r = e.call(http.MethodPost, "/api/v1/withdrawals", token, map[string]any{"amount": 10, "creditParty": party, "postbackUrl": u})
		r.expectError(t, http.StatusUnprocessableEntity, codeValidation)
	}
	if n := e.count(`SELECT (SELECT count(*) FROM charges) + (SELECT count(*) FROM withdrawals)`); n != 0 {
		t.Fatalf("refused requests created %d records", n)
	}
	e.call(http.MethodPost, "/api/v1/charges", token, map[string]any{"amount": 10, "payer": payer, "postbackUrl": "https://shop.example/hook"}).
		expect(t, http.StatusCreated)
}
