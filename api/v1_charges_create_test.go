package api

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/providerclient/pix/brcode/brcodetest"
	"github.com/pixgate/pixgate/providerclient/sandbox"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

const qrcodePath = "/v2/pix/qrcode"

// jsonBody renders members given as raw JSON, in a fixed order; a member
// set to "-" is left out.
func jsonBody(base map[string]string, edits map[string]string) string {
	m := make(map[string]string, len(base))
	for k, v := range base {
		m[k] = v
	}
	for k, v := range edits {
		m[k] = v
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		if m[k] != "-" {
			parts = append(parts, `"`+k+`":`+m[k])
		}
	}
	return "{" + strings.Join(parts, ",") + "}"
}

func validCharge(edits map[string]string) string {
	return jsonBody(map[string]string{
		"amount":        "15.50",
		"payer":         `{"name":"Fulano de Tal","document":"529.982.247-25","email":"fulano@example.com"}`,
		"external_id":   `"order-1001"`,
		"postbackUrl":   `"https://shop.example/pix/hook"`,
		"payerQuestion": `"Pedido 1001"`,
	}, edits)
}

func TestCreateChargeRefusesBadInput(t *testing.T) {
	e := newEnv(t)
	// A cash-in fee of R$ 1.00 makes "amount must exceed the fee" testable.
	in, token := e.integrator("Loja Validacao", money.Fixed(100), money.Fixed(50))
	tests := []struct {
		name   string
		body   string
		status int
		field  string // expected key of "errors" (422 only)
	}{
		{"amount with 3 decimals", validCharge(map[string]string{"amount": "15.505"}), 422, "amount"},
		{"amount zero", validCharge(map[string]string{"amount": "0"}), 422, "amount"},
		{"amount negative", validCharge(map[string]string{"amount": "-1"}), 422, "amount"},
		{"amount with exponent", validCharge(map[string]string{"amount": "1e3"}), 422, "amount"},
		{"amount as string", validCharge(map[string]string{"amount": `"15"`}), 422, "amount"},
		{"amount boolean", validCharge(map[string]string{"amount": "true"}), 422, "amount"},
		{"amount null", validCharge(map[string]string{"amount": "null"}), 422, "amount"},
		{"amount missing", validCharge(map[string]string{"amount": "-"}), 422, "amount"},
		{"amount above maximum", validCharge(map[string]string{"amount": "100000.01"}), 422, "amount"},
		{"amount equal to the cash-in fee", validCharge(map[string]string{"amount": "1.00"}), 422, "amount"},
		{"external_id of a recurrence cycle's charge", validCharge(map[string]string{"external_id": `"REC-019ad2a0-7c3e-7d7a-9b8e-3f6a2c1d0e4f"`}), 422, "external_id"},
		{"payer missing", validCharge(map[string]string{"payer": "-"}), 422, "payer"},
		{"payer a string", validCharge(map[string]string{"payer": `"Fulano"`}), 422, "payer"},
		{"payer an array", validCharge(map[string]string{"payer": `[]`}), 422, "payer"},
		{"payer.name missing", validCharge(map[string]string{"payer": `{"document":"52998224725"}`}), 422, "payer.name"},
		{"payer.name blank", validCharge(map[string]string{"payer": `{"name":"   ","document":"52998224725"}`}), 422, "payer.name"},
		{"payer.name a number", validCharge(map[string]string{"payer": `{"name":12,"document":"52998224725"}`}), 422, "payer.name"},
		{"payer.name too long", validCharge(map[string]string{"payer": `{"name":"` + strings.Repeat("a", 101) + `","document":"52998224725"}`}), 422, "payer.name"},
		{"payer.name with NUL", validCharge(map[string]string{"payer": `{"name":"a\u0000b","document":"52998224725"}`}), 422, "payer.name"},
		{"payer.document missing", validCharge(map[string]string{"payer": `{"name":"Fulano"}`}), 422, "payer.document"},
		{"payer.document bad CPF", validCharge(map[string]string{"payer": `{"name":"Fulano","document":"529.982.247-24"}`}), 422, "payer.document"},
		{"payer.document bad CNPJ", validCharge(map[string]string{"payer": `{"name":"Fulano","document":"11.222.333/0001-82"}`}), 422, "payer.document"},
		{"payer.document all zeros", validCharge(map[string]string{"payer": `{"name":"Fulano","document":"00000000000"}`}), 422, "payer.document"},
		{"payer.email malformed", validCharge(map[string]string{"payer": `{"name":"F","document":"52998224725","email":"not-an-email"}`}), 422, "payer.email"},
		{"payer.email without dotted domain", validCharge(map[string]string{"payer": `{"name":"F","document":"52998224725","email":"a@b"}`}), 422, "payer.email"},
		{"payer.email with display name", validCharge(map[string]string{"payer": `{"name":"F","document":"52998224725","email":"F <f@example.com>"}`}), 422, "payer.email"},
		{"payer.email a number", validCharge(map[string]string{"payer": `{"name":"F","document":"52998224725","email":5}`}), 422, "payer.email"},
		{"postbackUrl ftp", validCharge(map[string]string{"postbackUrl": `"ftp://shop.example/hook"`}), 422, "postbackUrl"},
		{"postbackUrl http in production", validCharge(map[string]string{"postbackUrl": `"http://shop.example/hook"`}), 422, "postbackUrl"},
		{"postbackUrl relative", validCharge(map[string]string{"postbackUrl": `"/hook"`}), 422, "postbackUrl"},
		{"postbackUrl not a URL", validCharge(map[string]string{"postbackUrl": `"not a url"`}), 422, "postbackUrl"},
		{"postbackUrl without host", validCharge(map[string]string{"postbackUrl": `"https://"`}), 422, "postbackUrl"},
		{"postbackUrl with credentials", validCharge(map[string]string{"postbackUrl": `"https://u:p@shop.example/hook"`}), 422, "postbackUrl"},
		{"postbackUrl too long", validCharge(map[string]string{"postbackUrl": `"https://shop.example/` + strings.Repeat("a", 2048) + `"`}), 422, "postbackUrl"},
		{"postbackUrl an object", validCharge(map[string]string{"postbackUrl": `{}`}), 422, "postbackUrl"},
		{"payerQuestion too long", validCharge(map[string]string{"payerQuestion": `"` + strings.Repeat("q", 141) + `"`}), 422, "payerQuestion"},
		{"split a string", validCharge(map[string]string{"split": `"10%"`}), 422, "split"},
		{"split an array", validCharge(map[string]string{"split": `[{"a":1}]`}), 422, "split"},
		{"split a number", validCharge(map[string]string{"split": `5`}), 422, "split"},
		{"split with NUL", validCharge(map[string]string{"split": `{"recipients":[{"sub_account":"\u0000","percent":1}]}`}), 422, "split.recipients[0].sub_account"},
		{"split too deep", validCharge(map[string]string{"split": strings.Repeat(`{"a":`, 40) + "1" + strings.Repeat("}", 40)}), 422, "split.a"},
		{"external_id empty", validCharge(map[string]string{"external_id": `""`}), 422, "external_id"},
		{"external_id with space", validCharge(map[string]string{"external_id": `"order 1"`}), 422, "external_id"},
		{"external_id too long", validCharge(map[string]string{"external_id": `"` + strings.Repeat("x", 65) + `"`}), 422, "external_id"},
		{"external_id a number", validCharge(map[string]string{"external_id": `1001`}), 422, "external_id"},
		{"empty object names both required fields", `{}`, 422, "payer"},
		{"malformed JSON", `{"amount": 15.50,`, 400, ""},
		{"trailing comma", `{"amount": 15.50,}`, 400, ""},
		{"not an object", `[1,2]`, 400, ""},
		{"null body", `null`, 400, ""},
		{"empty body", ``, 400, ""},
		{"two documents", `{} {}`, 400, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := e.on(t)
			r := e.call(http.MethodPost, "/api/v1/charges", token, tt.body)
			code := codeValidation
			if tt.status == 400 {
				code = codeMalformedJSON
			}
			r.expectError(t, tt.status, code)
			if tt.field != "" {
				if _, ok := r.fieldErrors()[tt.field]; !ok {
					t.Fatalf("errors does not name %q: %s", tt.field, r.raw)
				}
			}
		})
	}

	t.Run("every problem at once", func(t *testing.T) {
		e := e.on(t)
		r := e.call(http.MethodPost, "/api/v1/charges", token,
			`{"amount":"x","payer":{"document":"1"},"postbackUrl":"ftp://x","split":[]}`).expectError(t, 422, codeValidation)
		for _, f := range []string{"amount", "payer.name", "payer.document", "postbackUrl", "split"} {
			if _, ok := r.fieldErrors()[f]; !ok {
				t.Errorf("errors does not name %q: %s", f, r.raw)
			}
		}
	})
	t.Run("fee message names the fee", func(t *testing.T) {
		e := e.on(t)
		r := e.call(http.MethodPost, "/api/v1/charges", token, validCharge(map[string]string{"amount": "0.99"}))
		if msg := fmt.Sprint(r.fieldErrors()["amount"]); !strings.Contains(msg, "cash-in fee of R$ 1.00") {
			t.Fatalf("amount error = %s", msg)
		}
	})
	t.Run("wrong content type", func(t *testing.T) {
		e := e.on(t)
		e.call(http.MethodPost, "/api/v1/charges", token, validCharge(nil), "Content-Type", "text/plain").
			expectError(t, 415, codeUnsupportedMedia)
		e.call(http.MethodPost, "/api/v1/charges", token, validCharge(nil), "Content-Type", "").
			expectError(t, 415, codeUnsupportedMedia)
		e.call(http.MethodPost, "/api/v1/charges", token, validCharge(nil), "Content-Type", "application/json; charset=latin1").
			expectError(t, 415, codeUnsupportedMedia)
	})
	t.Run("oversized body", func(t *testing.T) {
		e := e.on(t)
		e.oversized("/api/v1/charges", token, 70<<10).expectError(t, 413, codePayloadTooLarge)
	})

	if n := e.count(`SELECT count(*) FROM charges`); n != 0 {
		t.Fatalf("%d charges written by refused requests", n)
	}
	if n := e.sb.Stats().Requests[qrcodePath]; n != 0 {
		t.Fatalf("provider asked %d times by refused requests", n)
	}
	if w := e.wallet(in.ID); w != (storage.Wallet{}) {
		t.Fatalf("wallet changed: %+v", w)
	}
}

func TestCreateCharge(t *testing.T) {
	e := newEnv(t)
	_, token := e.integrator("Loja Feliz", money.Percent(15000), money.Fixed(50)) // 1.5% cash-in

	r := e.call(http.MethodPost, "/api/v1/charges", token, validCharge(map[string]string{"unknown_field": `{"ignored":true}`})).expect(t, 201)
	id, err := uuid.Parse(r.str("id"))
	if err != nil || id.Version() != 7 {
		t.Fatalf("id %q is not a UUIDv7", r.str("id"))
	}
	want := map[string]any{
		"external_id": "order-1001", "amount": "15.50", "fee": "0.23", "net_amount": "15.27", "status": "PENDING",
		"payer.name": "Fulano de Tal", "payer.document": validCPF, "payer.email": "fulano@example.com",
		"payerQuestion": "Pedido 1001", "postbackUrl": "https://shop.example/pix/hook",
		"refunded_amount": "0.00", "failure_reason": nil, "paid_at": nil, "end_to_end_id": nil, "available_at": nil,
	}
	for path, w := range want {
		if got := r.get(path); got != w {
			t.Errorf("%s = %v, want %v", path, got, w)
		}
	}
	if r.str("pix_id") == "" || r.str("expires_at") == "" || r.str("created_at") == "" {
		t.Fatalf("charge not issued: %s", r.raw)
	}
	if !strings.Contains(r.raw, `"split":null`) {
		t.Errorf("a charge without a split shows split null: %s", r.raw)
	}
	code, err := brcodetest.Parse(r.str("qrcode"))
	if err != nil || code.Amount != money.FromReais(15, 50) || !code.Dynamic() {
		t.Fatalf("qrcode %q: %+v, %v", r.str("qrcode"), code, err)
	}
	// The provider knows the charge by PixGate's id, not the integrator's.
	tx, err := e.sb.Transaction(r.str("pix_id"))
	if err != nil || tx.ExternalID != id.String() || tx.Amount != money.FromReais(15, 50) {
		t.Fatalf("provider side: %+v, %v", tx, err)
	}
}

func TestCreateChargeGeneratesExternalID(t *testing.T) {
	e := newEnv(t)
	_, token := e.integrator("Loja Sem Id", money.Percent(0), money.Fixed(0))
	body := validCharge(map[string]string{"external_id": "-"})
	a := e.call(http.MethodPost, "/api/v1/charges", token, body).expect(t, 201)
	b := e.call(http.MethodPost, "/api/v1/charges", token, body).expect(t, 201)
	for _, r := range []reply{a, b} {
		if ext := r.str("external_id"); !strings.HasPrefix(ext, "chg-") || len(ext) < 20 {
			t.Fatalf("generated external_id %q", ext)
		}
	}
	if a.str("id") == b.str("id") || a.str("external_id") == b.str("external_id") {
		t.Fatal("without external_id every request is a new charge")
	}
}

func TestCreateChargeIsIdempotent(t *testing.T) {
	e := newEnv(t)
	_, token := e.integrator("Loja Repetida", money.Percent(15000), money.Fixed(50))
	first := e.call(http.MethodPost, "/api/v1/charges", token, validCharge(nil)).expect(t, 201)

	// The same request, spelled differently (document without punctuation,
	// members reordered by jsonBody) is a replay.
	same := validCharge(map[string]string{
		"payer": `{"email":"fulano@example.com","document":"52998224725","name":"Fulano de Tal"}`,
	})
	replay := e.call(http.MethodPost, "/api/v1/charges", token, same).expect(t, 200)
	if replay.str("id") != first.str("id") || replay.str("pix_id") != first.str("pix_id") || replay.str("qrcode") != first.str("qrcode") {
		t.Fatalf("replay returned another charge:\n%s\n%s", first.raw, replay.raw)
	}
	for _, edit := range []map[string]string{
		{"amount": "15.51"},
		{"payer": `{"name":"Outro","document":"52998224725"}`},
		{"payerQuestion": "-"},
	} {
		e.call(http.MethodPost, "/api/v1/charges", token, validCharge(edit)).expectError(t, 409, codeIdempotency)
	}
	if n := e.sb.Stats().ChargesCreated; n != 1 {
		t.Fatalf("provider created %d charges, want 1", n)
	}
	if n := e.count(`SELECT count(*) FROM charges`); n != 1 {
		t.Fatalf("%d charges stored, want 1", n)
	}
}

func TestCreateChargeProviderOutageThenRetry(t *testing.T) {
	e := newEnv(t)
	_, token := e.integrator("Loja Paciente", money.Percent(15000), money.Fixed(50))
	e.sb.SetFaults(sandbox.Faults{Outage: true})
	r := e.call(http.MethodPost, "/api/v1/charges", token, validCharge(nil)).expectError(t, 503, codeProviderUnavailable)
	if r.header.Get("Retry-After") != "2" {
		t.Fatalf("Retry-After = %q", r.header.Get("Retry-After"))
	}
	failed := e.call(http.MethodGet, "/api/v1/charges/order-1001", token, nil).expect(t, 200)
	if failed.str("status") != "FAILED" || failed.get("pix_id") != nil || failed.str("failure_reason") != "provider unavailable" {
		t.Fatalf("after the outage: %s", failed.raw)
	}

	e.sb.ResetFaults()
	retry := e.call(http.MethodPost, "/api/v1/charges", token, validCharge(nil)).expect(t, 200)
	if retry.str("id") != failed.str("id") || retry.str("status") != "PENDING" || retry.str("pix_id") == "" ||
		retry.get("failure_reason") != nil {
		t.Fatalf("retry: %s", retry.raw)
	}
	if _, err := brcodetest.Parse(retry.str("qrcode")); err != nil {
		t.Fatalf("qrcode after retry: %v", err)
	}
}

func TestCreateChargeBreakerOpen(t *testing.T) {
	e := newEnv(t, func(s *setup) { s.provider.BreakerFailures = 1 })
	_, token := e.integrator("Loja Breaker", money.Percent(0), money.Fixed(0))
	e.sb.SetFaults(sandbox.Faults{Outage: true})
	e.call(http.MethodPost, "/api/v1/charges", token, validCharge(nil)).expectError(t, 503, codeProviderUnavailable)
	before := e.sb.Stats().Requests[qrcodePath]
	r := e.call(http.MethodPost, "/api/v1/charges", token, validCharge(nil)).expectError(t, 503, codeProviderUnavailable)
	if r.header.Get("Retry-After") == "" {
		t.Fatal("no Retry-After with the breaker open")
	}
	if after := e.sb.Stats().Requests[qrcodePath]; after != before {
		t.Fatalf("breaker open, yet the provider was called (%d → %d)", before, after)
	}
	got := e.call(http.MethodGet, "/api/v1/charges/order-1001", token, nil).expect(t, 200)
	if got.str("failure_reason") != "provider unavailable (circuit breaker open)" {
		t.Fatalf("failure_reason = %q", got.str("failure_reason"))
	}
}

func TestCreateChargeProviderRejects(t *testing.T) {
	// A webhook URL the provider refuses is a configuration error; the
	// provider's message reaches the integrator and the charge is FAILED.
	e := newEnv(t, func(s *setup) { s.cfg.ProviderWebhookURL = "ftp://pixgate.example/hook" })
	_, token := e.integrator("Loja Rejeitada", money.Percent(0), money.Fixed(0))
	r := e.call(http.MethodPost, "/api/v1/charges", token, validCharge(nil)).expectError(t, 502, codeProviderRejected)
	if !strings.Contains(r.str("message"), "postbackUrl") {
		t.Fatalf("provider message not passed on: %s", r.raw)
	}
	got := e.call(http.MethodGet, "/api/v1/charges/order-1001", token, nil).expect(t, 200)
	if got.str("status") != "FAILED" || !strings.HasPrefix(got.str("failure_reason"), "provider rejected the charge") {
		t.Fatalf("after rejection: %s", got.raw)
	}
}

func TestCreateChargeProviderTimeout(t *testing.T) {
	e := newEnv(t, func(s *setup) { s.provider.Timeout = 300 * time.Millisecond })
	_, token := e.integrator("Loja Lenta", money.Percent(0), money.Fixed(0))
	e.sb.SetFaults(sandbox.Faults{TimeoutRate: 1, Routes: []string{qrcodePath}})
	e.call(http.MethodPost, "/api/v1/charges", token, validCharge(nil)).expectError(t, 504, codeProviderTimeout)

	// The provider did create it; the retry gets that same charge back.
	e.sb.ResetFaults()
	r := e.call(http.MethodPost, "/api/v1/charges", token, validCharge(nil)).expect(t, 200)
	if r.str("status") != "PENDING" || r.str("pix_id") == "" {
		t.Fatalf("retry after timeout: %s", r.raw)
	}
	if n := e.sb.Stats().ChargesCreated; n != 1 {
		t.Fatalf("provider created %d charges, want 1", n)
	}
}

func TestCreateChargeWithoutProviderWritesNothing(t *testing.T) {
	e := newEnv(t, func(s *setup) { s.noProvider = true })
	_, token := e.integrator("Loja Sem Provedor", money.Percent(0), money.Fixed(0))
	e.call(http.MethodPost, "/api/v1/charges", token, validCharge(nil)).expectError(t, 503, codeProviderUnavailable)
	if n := e.count(`SELECT count(*) FROM charges`); n != 0 {
		t.Fatalf("%d charges written", n)
	}
}
