package api

import (
	"net/http"
	"regexp"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/providerclient/pix/brcode/brcodetest"
	"github.com/pixgate/pixgate/storage/money"
)

// A charge through /v2 answers in the provider contract's shape, with a
// valid BR Code; consult-transaction sees it PENDING, then PAID.
func TestV2QRCode(t *testing.T) {
	e := newEnv(t)
	in, v1 := e.integrator("Loja V2", money.Percent(15_000), money.Fixed(50))
	token := e.accessToken(v1)

	r := e.v2("/v2/pix/qrcode", token, familyCharge("pedido-1", "15.50")).expect(t, http.StatusOK).noNull(t)
	pixID := r.str("transactionId")
	if !regexp.MustCompile(`^[a-z0-9]{32}$`).MatchString(pixID) || r.str("external_id") != "pedido-1" || r.str("status") != "PENDING" ||
		r.get("amount") != "15.50" || r.str("debtor.name") != "Fulano de Tal" || r.str("debtor.document") != validCPF {
		t.Fatalf("qrcode answer %s", r.raw)
	}
	// Without expiration, the provider's validity, as it answered it (not
	// counted again from PixGate's record, which drifted to 3599).
	if exp := r.get("calendar.expiration"); exp != "3600" {
		t.Fatalf("calendar.expiration = %v, want the sandbox's hour", exp)
	}
	due := contract.ParseDate(r.str("calendar.dueDate"))
	if d := time.Until(due); d < 59*time.Minute || d > 61*time.Minute {
		t.Fatalf("calendar.dueDate %q is not an hour away in Brasília time", r.str("calendar.dueDate"))
	}
	code, err := brcodetest.Parse(r.str("qrcode"))
	if err != nil || code.Amount != 1550 {
		t.Fatalf("BR Code %q: %+v, %v", r.str("qrcode"), code, err)
	}
	if r.header.Get("Cache-Control") != "no-store" {
		t.Fatal("account data must not be cached")
	}

	c := e.v2("/v2/consult-transaction", token, map[string]any{"pix_id": pixID}).expect(t, http.StatusOK).noNull(t)
	if c.str("requestBody.transactionType") != "RECEIVEPIX" || c.str("requestBody.status") != "PENDING" ||
		c.str("requestBody.transactionId") != pixID || c.str("requestBody.external_id") != "pedido-1" || c.get("requestBody.amount") != "15.50" {
		t.Fatalf("consult pending %s", c.raw)
	}
	e.markPaid(in.ID, pixID)
	c = e.v2("/v2/consult-transaction", token, map[string]any{"pix_Id": pixID}).expect(t, http.StatusOK).noNull(t)
	if c.str("requestBody.status") != "PAID" || c.str("requestBody.dateApproval") == "" || c.str("requestBody.creditParty.taxId") != validCPF {
		t.Fatalf("consult paid %s", c.raw)
	}
}

// The idempotency of a charge does not depend on the surface: the same
// external_id and body through /v2 and then /api/v1 is the same charge, a
// different body is a conflict on either.
func TestChargeIdempotencyAcrossSurfaces(t *testing.T) {
	e := newEnv(t)
	_, v1 := e.integrator("Loja Ambas", money.Percent(0), money.Fixed(0))
	token := e.accessToken(v1)
	first := e.v2("/v2/pix/qrcode", token, familyCharge("pedido-7", "20")).expect(t, http.StatusOK)
	again := e.v2("/v2/pix/qrcode", token, familyCharge("pedido-7", "20.00")).expect(t, http.StatusOK)
	v1Replay := e.call(http.MethodPost, "/api/v1/charges", v1, familyCharge("pedido-7", "20.0")).expect(t, http.StatusOK)
	if again.str("transactionId") != first.str("transactionId") || v1Replay.str("pix_id") != first.str("transactionId") {
		t.Fatalf("replays: v2 %s, v1 %s; want the first charge %s", again.raw, v1Replay.raw, first.raw)
	}
	e.call(http.MethodPost, "/api/v1/charges", v1, familyCharge("pedido-7", "21")).expectError(t, http.StatusConflict, codeIdempotency)
	e.v2("/v2/pix/qrcode", token, familyCharge("pedido-7", "21")).expectError(t, http.StatusConflict, codeIdempotency)
	if n := e.count(`SELECT count(*) FROM charges`); n != 1 {
		t.Fatalf("%d charges, want 1", n)
	}
	if n := e.sb.Stats().ChargesCreated; n != 1 {
		t.Fatalf("provider charges = %d, want 1", n)
	}
}

// PixGate's surfaces keep the spec's rules for the payer, /v2 as /api/v1.
func TestV2QRCodeValidation(t *testing.T) {
	e := newEnv(t)
	_, v1 := e.integrator("Loja Regras", money.Fixed(100), money.Fixed(0))
	token := e.accessToken(v1)
	// The family's clients log only message: it names the first field at
	// fault, errors has every one.
	for _, tt := range []struct {
		name, body, field, message string
	}{
		{"no payer", `{"amount": 10}`, "payer", "payer is required"},
		{"payer without document", `{"amount": 10, "payer": {"name": "Fulano"}}`, "payer.document", "payer.document is required"},
		{"payer with an empty document", `{"amount": 10, "payer": {"name": "Fulano", "document": ""}}`, "payer.document",
			"payer.document must be a valid CPF or CNPJ"},
		{"payer without name", `{"amount": 10, "payer": {"document": "52998224725"}}`, "payer.name", "payer.name is required"},
		{"amount as a string", `{"amount": "10.00", "payer": {"name": "F", "document": "52998224725"}}`, "amount",
			`amount must be a number, not a string (send 15.50, not "15.50")`},
		{"amount not above the fee", `{"amount": 1, "payer": {"name": "F", "document": "52998224725"}}`, "amount",
			"amount must exceed the cash-in fee of R$ 1.00"},
		{"three problems", `{"amount": 0, "payer": {"name": ""}}`, "amount",
			"amount must be greater than zero (and 2 more errors)"},
	} {
		r := e.v2("/v2/pix/qrcode", token, tt.body).expectError(t, http.StatusUnprocessableEntity, codeValidation)
		if _, ok := r.fieldErrors()[tt.field]; !ok {
			t.Errorf("%s: errors do not name %s: %s", tt.name, tt.field, r.raw)
		}
		if r.str("message") != tt.message || r.get("statusCode") != "422" {
			t.Errorf("%s: message %q, want %q", tt.name, r.str("message"), tt.message)
		}
	}
	if n := e.count(`SELECT count(*) FROM charges`); n != 0 {
		t.Fatalf("%d charges written by refused requests", n)
	}
}
