package api

import (
	"net/http"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/storage/money"
)

// expiration (seconds), which the family's clients send on qrcode, sets a
// charge's validity on both surfaces; calendar.expiration echoes it.
func TestChargeExpirationIsHonoured(t *testing.T) {
	e := newEnv(t)
	_, v1 := e.integrator("Loja Validade", money.Percent(0), money.Fixed(0))
	token := e.accessToken(v1)

	r := e.v2("/v2/pix/qrcode", token, validCharge(map[string]string{"external_id": `"v2-600"`, "expiration": "600"})).expect(t, http.StatusOK)
	if r.get("calendar.expiration") != "600" {
		t.Fatalf("calendar.expiration = %v, want 600: %s", r.get("calendar.expiration"), r.raw)
	}
	if d := time.Until(contract.ParseDate(r.str("calendar.dueDate"))); d < 9*time.Minute || d > 11*time.Minute {
		t.Fatalf("dueDate %s is %v away, want 10 minutes", r.str("calendar.dueDate"), d)
	}
	// The replay answers the same, read from the record.
	again := e.v2("/v2/pix/qrcode", token, validCharge(map[string]string{"external_id": `"v2-600"`, "expiration": "600"})).expect(t, http.StatusOK)
	if again.get("calendar.expiration") != "600" || again.str("transactionId") != r.str("transactionId") {
		t.Fatalf("replay %s", again.raw)
	}
	// Another validity is another request.
	e.v2("/v2/pix/qrcode", token, validCharge(map[string]string{"external_id": `"v2-600"`, "expiration": "900"})).
		expectError(t, http.StatusConflict, codeIdempotency)

	c := e.call(http.MethodPost, "/api/v1/charges", v1, validCharge(map[string]string{"external_id": `"v1-86400"`, "expiration": "86400"})).expect(t, http.StatusCreated)
	created, _ := time.Parse(time.RFC3339, c.str("created_at"))
	expires, _ := time.Parse(time.RFC3339, c.str("expires_at"))
	if d := expires.Sub(created); d < 24*time.Hour-5*time.Second || d > 24*time.Hour+5*time.Second {
		t.Fatalf("v1 expires_at %s is %v after created_at, want a day", c.str("expires_at"), d)
	}
	consulted := e.v2("/v2/consult-transaction", token, map[string]any{"pix_id": c.str("pix_id")}).expect(t, http.StatusOK)
	if consulted.str("requestBody.dueDate") != contract.FormatDate(expires) {
		t.Fatalf("consult dueDate %s, want %s", consulted.str("requestBody.dueDate"), contract.FormatDate(expires))
	}
}

// A validity out of bounds, or not a whole number of seconds, is refused
// naming expiration, and nothing is written.
func TestChargeExpirationOutOfBoundsIsRefused(t *testing.T) {
	e := newEnv(t)
	_, v1 := e.integrator("Loja Limites", money.Percent(0), money.Fixed(0))
	token := e.accessToken(v1)
	const want = "expiration must be a whole number of seconds from 60 to 604800"
	for _, bad := range []string{"59", "0", "-60", "604801", "3600.5", "1e3", `"3600"`, "true", "99999999999999999999"} {
		for _, send := range []func() reply{
			func() reply { return e.v2("/v2/pix/qrcode", token, validCharge(map[string]string{"expiration": bad})) },
			func() reply {
				return e.call(http.MethodPost, "/api/v1/charges", v1, validCharge(map[string]string{"expiration": bad}))
			},
		} {
			r := send().expectError(t, http.StatusUnprocessableEntity, codeValidation)
			if r.str("message") != want || len(r.fieldErrors()) != 1 {
				t.Errorf("expiration %s: %s", bad, r.raw)
			}
		}
	}
	for _, ok := range []string{"60", "604800", "null"} {
		e.call(http.MethodPost, "/api/v1/charges", v1, validCharge(map[string]string{"external_id": `"ok-` + ok + `"`, "expiration": ok})).
			expect(t, http.StatusCreated)
	}
	if n := e.count(`SELECT count(*) FROM charges`); n != 3 {
		t.Fatalf("%d charges, want the 3 accepted", n)
	}
}
