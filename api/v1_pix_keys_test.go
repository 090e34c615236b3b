package api

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

// The key lookup needs its own scope; shows the holder as PIX apps do (a
// CPF masked, a CNPJ whole), the key's type read from its shape or named,
// keys the DICT flags for fraud, 404 for keys it does not have; and its
// budget is the account's, all its keys together, another account's
// untouched, a key not found costing twenty lookups. A provider without a
// lookup answers 501.
func TestV1PixKeyLookup(t *testing.T) {
	e := newEnv(t, func(s *setup) { s.cfg.KeyLookupsPerMinute, s.provider.Extensions = 6, true })
	in, v1 := e.integrator("Loja Consulta", money.Percent(0), money.Fixed(0))
	_, other := e.integrator("Loja Vizinha", money.Percent(0), money.Fixed(0))
	key := func(scopes ...string) string {
		_, k, err := e.db.CreateKey(context.Background(), storage.NewKey{IntegratorID: in.ID, Scopes: scopes})
		if err != nil {
			t.Fatal(err)
		}
		return k.Token()
	}
	second := key(storage.ScopePixKeysRead)

	r := e.call(http.MethodGet, "/api/v1/pix-keys/529.982.247-25", key(storage.ScopeChargesRead), nil).expectError(t, http.StatusForbidden, codeForbidden)
	if !strings.Contains(r.str("message"), storage.ScopePixKeysRead) {
		t.Fatalf("refusal does not name the scope: %s", r.raw)
	}

	r = e.call(http.MethodGet, "/api/v1/pix-keys/529.982.247-25", v1, nil).expect(t, http.StatusOK) // 1
	if r.str("key") != "52998224725" || r.str("key_type") != "CPF" || r.str("holder.document") != "***.982.247-**" ||
		r.str("holder.type") != "NATURAL_PERSON" || r.str("holder.name") == "" || r.str("institution.ispb") == "" || r.get("fraud_marked") != false {
		t.Fatalf("CPF key: %s", r.raw)
	}
	if strings.Contains(string(r.raw), "52998224725\"}") || strings.Contains(r.str("holder.document"), "529") {
		t.Fatalf("the CPF shows unmasked: %s", r.raw)
	}
	r = e.call(http.MethodGet, "/api/v1/pix-keys/11222333000181?keyType=CNPJ", second, nil).expect(t, http.StatusOK) // 2
	if r.str("key_type") != "CNPJ" || r.str("holder.document") != "11.222.333/0001-81" || r.str("holder.type") != "LEGAL_PERSON" {
		t.Fatalf("CNPJ key: %s", r.raw)
	}
	r = e.call(http.MethodGet, "/api/v1/pix-keys/cliente%40example.com", v1, nil).expect(t, http.StatusOK) // 3
	if doc := r.str("holder.document"); r.str("key_type") != "EMAIL" || !strings.HasPrefix(doc, "***.") || !strings.HasSuffix(doc, "-**") {
		t.Fatalf("e-mail key: %s", r.raw)
	}
	if r := e.call(http.MethodGet, "/api/v1/pix-keys/fraude%40example.com", second, nil).expect(t, http.StatusOK); r.get("fraud_marked") != true { // 4
		t.Fatalf("flagged key: %s", r.raw)
	}
	e.call(http.MethodGet, "/api/v1/pix-keys/nao-e-uma-chave", v1, nil).expect(t, http.StatusUnprocessableEntity)                      // refused before the budget
	e.call(http.MethodGet, "/api/v1/pix-keys/%2B5511998765432", second, nil).expect(t, http.StatusOK)                                  // 5
	e.call(http.MethodGet, "/api/v1/pix-keys/inexistente%40example.com", v1, nil).expectError(t, http.StatusNotFound, codeKeyNotFound) // 6, a miss

	// The account's next lookup, by either key: 429, until the miss's
	// twenty tokens have refilled (ten seconds each at six a minute).
	for _, tok := range []string{v1, second} {
		r := e.call(http.MethodGet, "/api/v1/pix-keys/529.982.247-25", tok, nil).expectError(t, http.StatusTooManyRequests, codeRateLimited)
		if retry, err := strconv.Atoi(r.header.Get("Retry-After")); err != nil || retry < 150 {
			t.Fatalf("Retry-After %q after a miss, want the miss's debt (~190 s): %s", r.header.Get("Retry-After"), r.raw)
		}
	}
	e.call(http.MethodGet, "/api/v1/pix-keys/529.982.247-25", other, nil).expect(t, http.StatusOK)

	// A provider without a lookup: 501, said plainly.
	plain := newEnv(t)
	_, tok := plain.integrator("Loja Sem Consulta", money.Percent(0), money.Fixed(0))
	plain.call(http.MethodGet, "/api/v1/pix-keys/529.982.247-25", tok, nil).expectError(t, http.StatusNotImplemented, codeNotSupported)
}
