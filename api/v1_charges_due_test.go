package api

import (
	"net/http"
	"testing"

	"github.com/pixgate/pixgate/storage/money"
)

// A due-date charge's terms are read member by member: each problem is a
// 422 naming its member below due, a member the terms do not know is
// refused (a misspelt fine must not leave the charge without one), and
// nothing is written.
func TestCreateDueChargeRefusesBadTerms(t *testing.T) {
	e := newEnv(t)
	_, token := e.integrator("Loja Vencimento", money.Fixed(100), money.Fixed(50))
	due := func(terms string) string { return validCharge(map[string]string{"due": terms}) }
	for _, tt := range []struct {
		name, body, field string
	}{
		{"due a string", due(`"2026-12-10"`), "due"},
		{"date missing", due(`{}`), "due.date"},
		{"date not a date", due(`{"date":"10/12/2026"}`), "due.date"},
		{"date impossible", due(`{"date":"2026-02-30"}`), "due.date"},
		{"days_after negative", due(`{"date":"2026-12-10","days_after":-1}`), "due.days_after"},
		{"days_after a fraction", due(`{"date":"2026-12-10","days_after":1.5}`), "due.days_after"},
		{"unknown member", due(`{"date":"2026-12-10","multa":{"mode":"fixed","value":2}}`), "due.multa"},
		{"misspelt member of fine", due(`{"date":"2026-12-10","fine":{"mode":"fixed","valor":2}}`), "due.fine.valor"},
		{"fine value missing", due(`{"date":"2026-12-10","fine":{"mode":"fixed"}}`), "due.fine.value"},
		{"fine value a string", due(`{"date":"2026-12-10","fine":{"mode":"fixed","value":"2.00"}}`), "due.fine.value"},
		{"fine value with 3 decimals", due(`{"date":"2026-12-10","fine":{"mode":"percent","value":2.005}}`), "due.fine.value"},
		{"fine mode missing", due(`{"date":"2026-12-10","fine":{"value":2}}`), "due.fine.mode"},
		{"interest value zero", due(`{"date":"2026-12-10","interest":{"mode":"percent_per_month","value":0}}`), "due.interest.value"},
		{"discount dates not an array", due(`{"date":"2026-12-10","discount":{"mode":"fixed_until","dates":{"until":"2026-12-01","value":1}}}`), "due.discount.dates"},
		{"discount date with unknown member", due(`{"date":"2026-12-10","discount":{"mode":"fixed_until","dates":[{"until":"2026-12-01","value":1,"x":1}]}}`), "due.discount.dates[0].x"},
		{"discount date not a date", due(`{"date":"2026-12-10","discount":{"mode":"fixed_until","dates":[{"until":"amanhã","value":1}]}}`), "due.discount.dates[0].until"},
		{"discount date null", due(`{"date":"2026-12-10","discount":{"mode":"fixed_until","dates":[null]}}`), "due.discount.dates[0]"},
		{"expiration beside due", validCharge(map[string]string{"due": `{"date":"2026-12-10"}`, "expiration": "3600"}), "expiration"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := e.on(t)
			r := e.call(http.MethodPost, "/api/v1/charges", token, tt.body).expectError(t, 422, codeValidation)
			if _, ok := r.fieldErrors()[tt.field]; !ok {
				t.Fatalf("errors does not name %q: %s", tt.field, r.raw)
			}
		})
	}
	if n := e.count(`SELECT count(*) FROM charges`); n != 0 {
		t.Errorf("%d charges written", n)
	}
}
