package api

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/pixgate/pixgate/storage/money"
)

func validWithdrawal(edits map[string]string) string {
	return jsonBody(map[string]string{
		"amount":      "25.10",
		"creditParty": `{"name":"Beltrano","keyType":"TELEFONE","key":"(11) 99876-5432","taxId":"529.982.247-25"}`,
		"external_id": `"saque-1"`,
		"description": `"Repasse de outubro"`,
		"postbackUrl": `"https://shop.example/pix/saques"`,
	}, edits)
}

func party(name, keyType, key, taxID string) string {
	return fmt.Sprintf(`{"name":%q,"keyType":%q,"key":%q,"taxId":%q}`, name, keyType, key, taxID)
}

func TestCreateWithdrawalRefusesBadInput(t *testing.T) {
	e := newEnv(t)
	in, token := e.integrator("Loja Saque Invalido", money.Percent(0), money.Fixed(50))
	e.fund(in.ID, money.FromReais(100, 0))
	before := e.wallet(in.ID)
	ledgerBefore := e.count(`SELECT count(*) FROM ledger_transactions`)

	tests := []struct {
		name   string
		body   string
		status int
		field  string
		says   string // part of the field's message, when it matters
	}{
		{"amount with 3 decimals", validWithdrawal(map[string]string{"amount": "15.505"}), 422, "amount", "2 decimal"},
		{"amount zero", validWithdrawal(map[string]string{"amount": "0"}), 422, "amount", ""},
		{"amount negative", validWithdrawal(map[string]string{"amount": "-1"}), 422, "amount", ""},
		{"amount with exponent", validWithdrawal(map[string]string{"amount": "1e3"}), 422, "amount", "exponent"},
		{"amount as string", validWithdrawal(map[string]string{"amount": `"15"`}), 422, "amount", "not a string"},
		{"amount missing", validWithdrawal(map[string]string{"amount": "-"}), 422, "amount", "required"},
		{"amount above maximum", validWithdrawal(map[string]string{"amount": "100000.01"}), 422, "amount", "100000.00"},
		{"creditParty missing", validWithdrawal(map[string]string{"creditParty": "-"}), 422, "creditParty", "required"},
		{"creditParty a string", validWithdrawal(map[string]string{"creditParty": `"x"`}), 422, "creditParty", "object"},
		{"name missing", validWithdrawal(map[string]string{"creditParty": `{"keyType":"CPF","key":"52998224725","taxId":"52998224725"}`}), 422, "creditParty.name", ""},
		{"name blank", validWithdrawal(map[string]string{"creditParty": party(" ", "CPF", validCPF, validCPF)}), 422, "creditParty.name", ""},
		{"keyType missing", validWithdrawal(map[string]string{"creditParty": `{"name":"B","key":"52998224725","taxId":"52998224725"}`}), 422, "creditParty.keyType", ""},
		{"keyType unknown", validWithdrawal(map[string]string{"creditParty": party("B", "BANANA", validCPF, validCPF)}), 422, "creditParty.keyType", "CPF, CNPJ, EMAIL, PHONE, EVP"},
		{"keyType a number", validWithdrawal(map[string]string{"creditParty": `{"name":"B","keyType":1,"key":"52998224725","taxId":"52998224725"}`}), 422, "creditParty.keyType", ""},
		{"key missing", validWithdrawal(map[string]string{"creditParty": `{"name":"B","keyType":"CPF","taxId":"52998224725"}`}), 422, "creditParty.key", ""},
		{"key blank", validWithdrawal(map[string]string{"creditParty": party("B", "CPF", "  ", validCPF)}), 422, "creditParty.key", ""},
		{"CPF key with wrong digit", validWithdrawal(map[string]string{"creditParty": party("B", "CPF", "52998224724", validCPF)}), 422, "creditParty.key", "CPF"},
		{"CNPJ key with wrong digit", validWithdrawal(map[string]string{"creditParty": party("B", "CNPJ", "11222333000182", validCPF)}), 422, "creditParty.key", "CNPJ"},
		{"CPF given for CNPJ key", validWithdrawal(map[string]string{"creditParty": party("B", "CNPJ", validCPF, validCPF)}), 422, "creditParty.key", "CNPJ"},
		{"EMAIL key malformed", validWithdrawal(map[string]string{"creditParty": party("B", "EMAIL", "fulano-at-example.com", validCPF)}), 422, "creditParty.key", "EMAIL"},
		{"PHONE key malformed", validWithdrawal(map[string]string{"creditParty": party("B", "PHONE", "12345", validCPF)}), 422, "creditParty.key", "PHONE"},
		{"EVP key malformed", validWithdrawal(map[string]string{"creditParty": party("B", "EVP", "not-a-uuid", validCPF)}), 422, "creditParty.key", "EVP"},
		{"taxId missing", validWithdrawal(map[string]string{"creditParty": `{"name":"B","keyType":"CPF","key":"52998224725"}`}), 422, "creditParty.taxId", ""},
		{"taxId invalid", validWithdrawal(map[string]string{"creditParty": party("B", "CPF", validCPF, "12345678900")}), 422, "creditParty.taxId", "CPF or CNPJ"},
		{"description too long", validWithdrawal(map[string]string{"description": `"` + strings.Repeat("d", 141) + `"`}), 422, "description", "140"},
		{"postbackUrl http", validWithdrawal(map[string]string{"postbackUrl": `"http://shop.example/hook"`}), 422, "postbackUrl", "https"},
		{"postbackUrl garbage", validWithdrawal(map[string]string{"postbackUrl": `"::"`}), 422, "postbackUrl", ""},
		{"external_id with tab", validWithdrawal(map[string]string{"external_id": `"a\tb"`}), 422, "external_id", ""},
		{"external_id too long", validWithdrawal(map[string]string{"external_id": `"` + strings.Repeat("x", 65) + `"`}), 422, "external_id", "64"},
		{"malformed JSON", `{"amount": 25.10, "creditParty": {`, 400, "", ""},
		{"not an object", `"saque"`, 400, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := e.on(t)
			r := e.call(http.MethodPost, "/api/v1/withdrawals", token, tt.body)
			code := codeValidation
			if tt.status == 400 {
				code = codeMalformedJSON
			}
			r.expectError(t, tt.status, code)
			if tt.field == "" {
				return
			}
			msgs, ok := r.fieldErrors()[tt.field]
			if !ok {
				t.Fatalf("errors does not name %q: %s", tt.field, r.raw)
			}
			if !strings.Contains(fmt.Sprint(msgs), tt.says) {
				t.Fatalf("%s: %v does not say %q", tt.field, msgs, tt.says)
			}
		})
	}
	t.Run("wrong content type", func(t *testing.T) {
		e := e.on(t)
		e.call(http.MethodPost, "/api/v1/withdrawals", token, validWithdrawal(nil), "Content-Type", "application/x-www-form-urlencoded").
			expectError(t, 415, codeUnsupportedMedia)
	})
	t.Run("oversized body", func(t *testing.T) {
		e := e.on(t)
		e.oversized("/api/v1/withdrawals", token, 70<<10).expectError(t, 413, codePayloadTooLarge)
	})

	if n := e.count(`SELECT count(*) FROM withdrawals`); n != 0 {
		t.Fatalf("%d withdrawals written by refused requests", n)
	}
	if n := e.count(`SELECT count(*) FROM outbox`); n != 0 {
		t.Fatalf("%d outbox rows written by refused requests", n)
	}
	if w := e.wallet(in.ID); w != before || e.count(`SELECT count(*) FROM ledger_transactions`) != ledgerBefore {
		t.Fatalf("wallet changed: %+v, was %+v", w, before)
	}
}

func TestCreateWithdrawalReserves(t *testing.T) {
	e := newEnv(t)
	in, token := e.integrator("Loja Saque", money.Percent(0), money.Fixed(50))
	e.fund(in.ID, money.FromReais(100, 0))

	r := e.call(http.MethodPost, "/api/v1/withdrawals", token, validWithdrawal(map[string]string{"ignored": "[1,2]"})).expect(t, 201)
	want := map[string]any{
		"external_id": "saque-1", "amount": "25.10", "fee": "0.50", "total": "25.60", "status": "PROCESSING",
		"creditParty.name": "Beltrano", "creditParty.keyType": "PHONE", "creditParty.key": "+5511998765432",
		"creditParty.taxId": validCPF, "description": "Repasse de outubro", "postbackUrl": "https://shop.example/pix/saques",
		"end_to_end_id": nil, "failure_reason": nil, "finished_at": nil,
	}
	// The pix_id exists from the first answer on: PixGate's own, not the
	// provider's, which comes later.
	want["pix_id"] = strings.ReplaceAll(r.str("id"), "-", "")
	for path, w := range want {
		if got := r.get(path); got != w {
			t.Errorf("%s = %v, want %v", path, got, w)
		}
	}
	if w := e.wallet(in.ID); w.Available != money.FromReais(74, 40) || w.Reserved != money.FromReais(25, 60) {
		t.Fatalf("wallet after the withdrawal: %+v", w)
	}
	var payload []byte
	err := e.db.Pool().QueryRow(context.Background(), `SELECT payload FROM outbox WHERE task_type = 'withdrawal:send' AND task_id = $1`,
		"withdrawal:send:"+r.str("id")).Scan(&payload)
	if err != nil {
		t.Fatalf("outbox row: %v", err)
	}
	var msg struct {
		WithdrawalID string `json:"withdrawal_id"`
	}
	if json.Unmarshal(payload, &msg) != nil || msg.WithdrawalID != r.str("id") {
		t.Fatalf("outbox payload %s", payload)
	}
	if e.sb.Stats().Requests["/v2/pix/payment"] != 0 {
		t.Fatal("the API called the provider; sending is the worker's job")
	}
}

func TestCreateWithdrawalIsIdempotent(t *testing.T) {
	e := newEnv(t)
	in, token := e.integrator("Loja Saque Repetido", money.Percent(0), money.Fixed(50))
	e.fund(in.ID, money.FromReais(100, 0))
	first := e.call(http.MethodPost, "/api/v1/withdrawals", token, validWithdrawal(nil)).expect(t, 201)
	after := e.wallet(in.ID)

	// The same key spelled canonically is the same request.
	same := validWithdrawal(map[string]string{"creditParty": party("Beltrano", "PHONE", "+5511998765432", validCPF)})
	replay := e.call(http.MethodPost, "/api/v1/withdrawals", token, same).expect(t, 200)
	if replay.raw != first.raw {
		t.Fatalf("replay:\n%s\nwant\n%s", replay.raw, first.raw)
	}
	e.call(http.MethodPost, "/api/v1/withdrawals", token, validWithdrawal(map[string]string{"amount": "25.11"})).expectError(t, 409, codeIdempotency)
	if w := e.wallet(in.ID); w != after {
		t.Fatalf("replays moved money: %+v, was %+v", w, after)
	}
	if n := e.count(`SELECT count(*) FROM outbox`); n != 1 {
		t.Fatalf("%d outbox rows, want 1", n)
	}

	// Without external_id there is no idempotency: each request is new.
	noID := validWithdrawal(map[string]string{"external_id": "-"})
	a := e.call(http.MethodPost, "/api/v1/withdrawals", token, noID).expect(t, 201)
	b := e.call(http.MethodPost, "/api/v1/withdrawals", token, noID).expect(t, 201)
	if a.str("id") == b.str("id") || a.get("external_id") != nil {
		t.Fatalf("without external_id: %s / %s", a.raw, b.raw)
	}
}

func TestCreateWithdrawalInsufficientFunds(t *testing.T) {
	e := newEnv(t)
	in, token := e.integrator("Loja Sem Saldo", money.Percent(0), money.Fixed(50))
	e.fund(in.ID, money.FromReais(10, 0))
	before := e.wallet(in.ID)

	r := e.call(http.MethodPost, "/api/v1/withdrawals", token, validWithdrawal(map[string]string{"amount": "9.51"})).
		expectError(t, 422, codeInsufficientFunds)
	if msg := r.str("message"); !strings.Contains(msg, "R$ 10.00") || !strings.Contains(msg, "R$ 10.01") {
		t.Fatalf("message should say available and needed: %q", msg)
	}
	if w := e.wallet(in.ID); w != before {
		t.Fatalf("wallet changed: %+v", w)
	}
	if n := e.count(`SELECT count(*) FROM withdrawals`) + e.count(`SELECT count(*) FROM outbox`); n != 0 {
		t.Fatalf("%d rows written by a refused withdrawal", n)
	}
	// Exactly the balance, fee included, is fine.
	e.call(http.MethodPost, "/api/v1/withdrawals", token, validWithdrawal(map[string]string{"amount": "9.50"})).expect(t, 201)
	if w := e.wallet(in.ID); w.Available != 0 || w.Reserved != money.FromReais(10, 0) {
		t.Fatalf("wallet: %+v", w)
	}
}

// TestConcurrentWithdrawalsNeverOverspend sends 100 withdrawals at once
// against a wallet that covers exactly 40 of them.
func TestConcurrentWithdrawalsNeverOverspend(t *testing.T) {
	e := newEnv(t)
	in, token := e.integrator("Loja Concorrida", money.Percent(0), money.Fixed(50))
	e.fund(in.ID, 40*money.FromReais(10, 50)) // 40 × (10.00 + 0.50 fee)

	const n = 100
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		results = map[string]int{}
		start   = make(chan struct{})
	)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body := validWithdrawal(map[string]string{"amount": "10.00", "external_id": fmt.Sprintf(`"burst-%d"`, i)})
			req, _ := http.NewRequest(http.MethodPost, e.url+"/api/v1/withdrawals", strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer "+token)
			<-start
			outcome := "transport error"
			if resp, err := e.http.Do(req); err == nil {
				var b struct{ Code string }
				_ = json.NewDecoder(resp.Body).Decode(&b)
				resp.Body.Close()
				outcome = fmt.Sprintf("%d %s", resp.StatusCode, b.Code)
			}
			mu.Lock()
			results[outcome]++
			mu.Unlock()
		}()
	}
	close(start)
	wg.Wait()

	if results["201 "] != 40 || results["422 insufficient_funds"] != 60 {
		t.Fatalf("outcomes %v, want 40 × 201 and 60 × 422 insufficient_funds", results)
	}
	if w := e.wallet(in.ID); w.Available != 0 || w.Reserved != 40*money.FromReais(10, 50) {
		t.Fatalf("wallet: %+v", w)
	}
	if got := e.count(`SELECT count(*) FROM outbox`); got != 40 {
		t.Fatalf("%d outbox rows, want 40", got)
	}
	violations, err := e.db.Audit(context.Background())
	if err != nil || len(violations) != 0 {
		t.Fatalf("audit: %v %v", violations, err)
	}
}
