package api

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/pixgate/pixgate/storage/money"
)

// due_at: a time in the future, at most 30 days ahead, in RFC 3339; a
// refused one is a 422 naming due_at and writes nothing. Given, the
// withdrawal is due then; without one, at its creation plus the
// integrator's payout deadline; with neither, never.
func TestWithdrawalDueAt(t *testing.T) {
	e := newEnv(t)
	in, token := e.integrator("Loja Prazo", money.Percent(0), money.Fixed(50))
	e.fund(in.ID, money.FromReais(100, 0))
	for name, v := range map[string]string{
		"in the past":     `"2020-01-02T03:04:05Z"`,
		"no offset":       `"2099-01-02T03:04:05"`,
		"a date alone":    `"2099-01-02"`,
		"a number":        `1767225600`,
		"too far ahead":   fmt.Sprintf("%q", time.Now().Add(31*24*time.Hour).Format(time.RFC3339)),
		"garbage":         `"soon"`,
		"an empty string": `""`,
	} {
		t.Run(name, func(t *testing.T) {
			r := e.on(t).call(http.MethodPost, "/api/v1/withdrawals", token, validWithdrawal(map[string]string{"due_at": v, "external_id": "-"}))
			r.expectError(t, 422, codeValidation)
			if _, ok := r.fieldErrors()["due_at"]; !ok {
				t.Fatalf("errors does not name due_at: %s", r.raw)
			}
		})
	}
	if n := e.count(`SELECT count(*) FROM withdrawals`); n != 0 {
		t.Fatalf("%d withdrawals written by refused requests", n)
	}

	due := time.Now().Add(90 * time.Minute).Truncate(time.Second)
	r := e.call(http.MethodPost, "/api/v1/withdrawals", token, validWithdrawal(map[string]string{
		"external_id": `"due-given"`, "due_at": fmt.Sprintf("%q", due.In(time.FixedZone("BRT", -3*3600)).Format(time.RFC3339))})).expect(t, 201)
	if got, _ := time.Parse(time.RFC3339, r.str("due_at")); !got.Equal(due) {
		t.Fatalf("due_at %q, want %s", r.str("due_at"), due)
	}
	r = e.call(http.MethodPost, "/api/v1/withdrawals", token, validWithdrawal(map[string]string{"external_id": `"no-deadline"`})).expect(t, 201)
	if r.get("due_at") != nil {
		t.Fatalf("due_at %v without a deadline", r.get("due_at"))
	}
	if _, err := e.db.SetPayoutDeadline(context.Background(), in.ID, 2*time.Hour); err != nil {
		t.Fatal(err)
	}
	r = e.call(http.MethodPost, "/api/v1/withdrawals", token, validWithdrawal(map[string]string{"external_id": `"deadline"`})).expect(t, 201)
	created, _ := time.Parse(time.RFC3339, r.str("created_at"))
	got, err := time.Parse(time.RFC3339, r.str("due_at"))
	if err != nil || got.Sub(created).Round(time.Minute) != 2*time.Hour {
		t.Fatalf("due_at %q for one created at %q under a 2h deadline", r.str("due_at"), r.str("created_at"))
	}
	// Read back as created.
	if back := e.call(http.MethodGet, "/api/v1/withdrawals/deadline", token, nil).expect(t, 200); back.str("due_at") != r.str("due_at") {
		t.Fatalf("read back due_at %q, created with %q", back.str("due_at"), r.str("due_at"))
	}
	// A replay without due_at is the same request.
	if rr := e.call(http.MethodPost, "/api/v1/withdrawals", token, validWithdrawal(map[string]string{"external_id": `"deadline"`})); rr.status != 200 {
		t.Fatalf("replay: %d %s", rr.status, rr.raw)
	}
	if !strings.Contains(r.str("due_at"), "T") {
		t.Fatalf("due_at %q", r.str("due_at"))
	}
}

// v2's payment request takes due_at as PixGate's extension, with v1's
// rule.
func TestV2PaymentDueAt(t *testing.T) {
	e := newEnv(t)
	in, v1 := e.integrator("Loja Prazo V2", money.Percent(0), money.Fixed(50))
	e.fund(in.ID, money.FromReais(100, 0))
	token := e.accessToken(v1)
	body := func(externalID, due string) string {
		return fmt.Sprintf(`{"amount": 10, "external_id": %q, "due_at": %q,
			"creditParty": {"name": "Beltrano", "keyType": "EMAIL", "key": "b@example.com", "taxId": "529.982.247-25"}}`, externalID, due)
	}
	r := e.v2("/v2/pix/payment", token, body("v2-past", "2020-01-01T00:00:00Z"))
	r.expectError(t, 422, codeValidation)
	if _, ok := r.fieldErrors()["due_at"]; !ok {
		t.Fatalf("errors does not name due_at: %s", r.raw)
	}
	due := time.Now().Add(time.Hour).UTC().Truncate(time.Second)
	e.v2("/v2/pix/payment", token, body("v2-due", due.Format(time.RFC3339))).expect(t, http.StatusOK)
	w := e.call(http.MethodGet, "/api/v1/withdrawals/v2-due", v1, nil).expect(t, 200)
	if got, _ := time.Parse(time.RFC3339, w.str("due_at")); !got.Equal(due) {
		t.Fatalf("due_at %q, want %s", w.str("due_at"), due)
	}
}
