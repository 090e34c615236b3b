package api

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/money/due"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// A recurrence request is read field by field, each problem a 422 naming
// it, nothing written; a journey no provider of the route offers is
// journey_not_supported, before anything is written.
func TestCreateRecurrenceRefusesBadInput(t *testing.T) {
	e := newEnv(t)
	_, token := e.integrator("Loja Assinatura", money.Fixed(10), money.Fixed(50))
	r := func(edits map[string]string) string { return validRecurrence(edits) }
	for _, tt := range []struct{ name, body, field string }{
		{"journey unknown", r(map[string]string{"journey": `"BOLETO"`}), "journey"},
		{"journey missing", r(map[string]string{"journey": "-"}), "journey"},
		{"external_id missing", r(map[string]string{"external_id": "-"}), "external_id"},
		{"payer missing", r(map[string]string{"payer": "-"}), "payer"},
		{"payer document bad", r(map[string]string{"payer": `{"name":"F","document":"111"}`}), "payer.document"},
		{"push without the payer's bank", r(map[string]string{"journey": `"PUSH"`}), "payer.bank"},
		{"a bank on a QR journey", r(map[string]string{"payer": `{"name":"F","document":"52998224725","bank":{"ispb":"1","branch":"1","account":"1"}}`}), "payer.bank"},
		{"contract missing", r(map[string]string{"contract": "-"}), "contract"},
		{"contract too long", r(map[string]string{"contract": `"123456789012345678901234567890123456"`}), "contract"},
		{"calendar missing", r(map[string]string{"calendar": "-"}), "calendar"},
		{"calendar start in the past", r(map[string]string{"calendar": `{"periodicity":"MONTHLY","start":"2000-01-10"}`}), "calendar.start"},
		{"calendar periodicity", r(map[string]string{"calendar": `{"periodicity":"DAILY","start":"2099-01-10"}`}), "calendar.periodicity"},
		{"calendar end and count", r(map[string]string{"calendar": `{"periodicity":"MONTHLY","start":"2099-01-10","end":"2099-06-10","count":2}`}), "calendar.count"},
		{"amount type", r(map[string]string{"amount": `{"type":"sometimes"}`}), "amount.type"},
		{"amount fixed without value", r(map[string]string{"amount": `{"type":"fixed"}`}), "amount.value"},
		{"amount fixed with a floor", r(map[string]string{"amount": `{"type":"fixed","value":35,"floor":10}`}), "amount.floor"},
		{"amount variable with a value", r(map[string]string{"amount": `{"type":"variable","value":35}`}), "amount.value"},
		{"retry policy", r(map[string]string{"retry_policy": `"ALWAYS"`}), "retry_policy"},
		{"consent past", r(map[string]string{"consent_expires_at": `"2000-01-01T00:00:00Z"`}), "consent_expires_at"},
		{"consent too far", r(map[string]string{"consent_expires_at": `"2098-01-01T00:00:00Z"`}), "consent_expires_at"},
		{"a first payment on the QR journey", r(map[string]string{"first_payment": `{"amount":35.00}`}), "first_payment"},
		{"QR_WITH_PAYMENT without its first payment", r(map[string]string{"journey": `"QR_WITH_PAYMENT"`}), "first_payment"},
		{"a first payment not the fixed amount", r(map[string]string{"journey": `"QR_WITH_PAYMENT"`, "first_payment": `{"amount":36.00}`}),
			"first_payment.amount"},
		{"a first payment of no amount", r(map[string]string{"journey": `"QR_WITH_PAYMENT"`, "first_payment": `{}`}), "first_payment.amount"},
		{"QR_WITH_PAYMENT starting another day", r(map[string]string{"journey": `"QR_WITH_PAYMENT"`, "first_payment": `{"amount":35.00}`}),
			"calendar.start"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := e.on(t).call(http.MethodPost, "/api/v1/recurrences", token, tt.body).expectError(t, 422, codeValidation)
			if _, ok := got.fieldErrors()[tt.field]; !ok {
				t.Fatalf("errors does not name %q: %s", tt.field, got.raw)
			}
		})
	}
	// A fixed amount the cash-in fee would take whole (each cycle is a
	// charge): refused before the provider is looked for.
	_, dear := e.integrator("Loja Taxa Alta", money.Fixed(100), money.Fixed(50))
	got := e.call(http.MethodPost, "/api/v1/recurrences", dear, r(map[string]string{"amount": `{"type":"fixed","value":1.00}`})).
		expectError(t, 422, codeValidation)
	if _, ok := got.fieldErrors()["amount.value"]; !ok {
		t.Fatalf("errors does not name amount.value: %s", got.raw)
	}
	// A cycle's amount: read as any amount, set only on a recurrence of
	// this account.
	for _, body := range []string{`{}`, `{"amount":"10"}`, `{"amount":-1}`, `{"amount":1.005}`} {
		got := e.call(http.MethodPut, "/api/v1/recurrences/plano-ouro-1/cycles/0", token, body).expectError(t, 422, codeValidation)
		if _, ok := got.fieldErrors()["amount"]; !ok {
			t.Fatalf("%s: errors does not name amount: %s", body, got.raw)
		}
	}
	e.call(http.MethodPut, "/api/v1/recurrences/plano-ouro-1/cycles/0", token, `{"amount":10.00}`).expectError(t, 404, codeNotFound)
	e.call(http.MethodPut, "/api/v1/recurrences/plano-ouro-1/cycles/x", token, `{"amount":10.00}`).expectError(t, 404, codeNotFound)
	// The env's family sandbox serves no recurrences without extensions.
	got = e.call(http.MethodPost, "/api/v1/recurrences", token, r(nil)).expectError(t, 422, "journey_not_supported")
	if _, ok := got.fieldErrors()["journey"]; !ok {
		t.Fatalf("errors does not name journey: %s", got.raw)
	}
	if n := e.count(`SELECT count(*) FROM recurrences`); n != 0 {
		t.Fatalf("%d recurrences written", n)
	}
	e.call(http.MethodGet, "/api/v1/recurrences/plano-ouro-1", token, nil).expectError(t, 404, codeNotFound)
	e.call(http.MethodPost, "/api/v1/recurrences/plano-ouro-1/cancel", token, nil).expectError(t, 404, codeNotFound)
}

// The integrator's recurrences are listed newest first, filtered by
// status and paged, and only its own.
func TestListRecurrences(t *testing.T) {
	e := newEnv(t)
	in, token := e.integrator("Loja Lista", money.Fixed(10), money.Fixed(50))
	other, _ := e.integrator("Loja Outra", money.Fixed(10), money.Fixed(50))
	ctx := context.Background()
	start, _ := due.ParseDate("2099-01-10")
	add := func(owner storage.Integrator, ext string) storage.Recurrence {
		r, _, err := e.db.CreateRecurrence(ctx, storage.NewRecurrence{ID: uuid.Must(uuid.NewV7()), IntegratorID: owner.ID, ExternalID: ext,
			RequestHash: []byte(ext), Journey: recurrence.JourneyQR, Calendar: recurrence.Calendar{Periodicity: recurrence.Monthly, Start: start},
			Amount: recurrence.Amount{Fixed: 3500}, RetryPolicy: recurrence.RetryNone, Payer: storage.Payer{Name: "F", Document: validCPF},
			Contract: "1", ConsentExpiresAt: time.Now().Add(time.Hour)})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	first, second := add(in, "a"), add(in, "b")
	add(other, "c")
	if _, err := e.db.FailRecurrence(ctx, first.ID, "refused"); err != nil {
		t.Fatal(err)
	}
	r := e.call(http.MethodGet, "/api/v1/recurrences?per_page=1", token, nil).expect(t, 200)
	if d := r.data(); len(d) != 1 || d[0]["id"] != second.ID.String() || r.str("meta.next_cursor") == "" {
		t.Fatalf("first page: %s", r.raw)
	}
	r = e.call(http.MethodGet, "/api/v1/recurrences?per_page=1&cursor="+r.str("meta.next_cursor"), token, nil).expect(t, 200)
	if d := r.data(); len(d) != 1 || d[0]["id"] != first.ID.String() {
		t.Fatalf("second page: %s", r.raw)
	}
	r = e.call(http.MethodGet, "/api/v1/recurrences?status=failed", token, nil).expect(t, 200)
	if d := r.data(); len(d) != 1 || d[0]["status"] != "FAILED" {
		t.Fatalf("FAILED ones: %s", r.raw)
	}
	e.call(http.MethodGet, "/api/v1/recurrences?status=ACTIVE", token, nil).expectError(t, 422, codeValidation)
}
