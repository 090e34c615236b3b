package api

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

// cpfCandidates are the CPFs a masked one (***.982.247-**) may be: each of
// its three hidden leading digits with the two check digits they give, in
// order.
func cpfCandidates(masked string) []string {
	mid := strings.NewReplacer(".", "", "-", "", "*", "").Replace(masked)
	out := make([]string, 0, 1000)
	for p := range 1000 {
		d := fmt.Sprintf("%03d%s", p, mid)
		d += cpfCheckDigit(d)
		d += cpfCheckDigit(d)
		out = append(out, d)
	}
	return out
}

func cpfCheckDigit(prefix string) string {
	sum := 0
	for i, c := range prefix {
		sum += int(c-'0') * (len(prefix) + 1 - i)
	}
	if r := sum % 11; r >= 2 {
		return fmt.Sprint(11 - r)
	}
	return "0"
}

// sameHolderAccount is a same-holder integrator on the sandbox's provider
// (with lookups), its v1 key and a v2 access token of it.
func sameHolderAccount(e *env, funds money.Money) (storage.Integrator, string, string) {
	e.t.Helper()
	in, tok := e.integrator("Loja Mesma Titularidade", money.Percent(0), money.Fixed(0))
	if _, err := e.db.SetSameHolder(context.Background(), in.ID, true); err != nil {
		e.t.Fatal(err)
	}
	if funds > 0 {
		e.fund(in.ID, funds)
	}
	return in, tok, e.accessToken(tok)
}

// withdraw sends a withdrawal body on one surface: "v1" (POST
// /api/v1/withdrawals, with the v1 key) or "v2" (POST /v2/pix/payment,
// with the access token).
func (e *env) withdraw(surface, v1, v2, body string) reply {
	e.t.Helper()
	if surface == "v2" {
		return e.v2("/v2/pix/payment", v2, body)
	}
	return e.call(http.MethodPost, "/api/v1/withdrawals", v1, body)
}

// The same-holder check is no directory oracle. From one masked lookup of
// a key (its holder's CPF less three digits and the check digits), an
// account tries every candidate CPF as a withdrawal's creditParty.taxId,
// on either surface. Each check spends the account's lookup budget, a miss
// (not_same_holder) twenty times a hit, so the budget stops it within a
// handful of misses: 429 with Retry-After, nothing reserved or recorded,
// no further lookup reaching the provider, the holder's CPF never
// confirmed.
func TestSameHolderCheckIsNoDirectoryOracle(t *testing.T) {
	for _, surface := range []string{"v1", "v2"} {
		t.Run(surface, func(t *testing.T) {
			e := newEnv(t, func(s *setup) { s.provider.Extensions = true }) // the default budget, 30 a minute
			in, v1, v2 := sameHolderAccount(e, money.FromReais(100, 0))
			masked := e.call(http.MethodGet, "/api/v1/pix-keys/cliente%40example.com", v1, nil).expect(t, http.StatusOK).str("holder.document")
			misses, stopped := 0, false
			for i, cpf := range cpfCandidates(masked) {
				r := e.withdraw(surface, v1, v2, validWithdrawal(map[string]string{
					"external_id": fmt.Sprintf(`"sonda-%d"`, i), "creditParty": party("Cliente", "EMAIL", "cliente@example.com", cpf)}))
				if r.status == http.StatusTooManyRequests {
					r.expectError(t, http.StatusTooManyRequests, codeRateLimited)
					if r.header.Get("Retry-After") == "" {
						t.Fatalf("429 without Retry-After: %s", r.raw)
					}
					stopped = true
					break
				}
				if r.status != http.StatusUnprocessableEntity || r.str("code") != "not_same_holder" {
					t.Fatalf("probe %d (%s) after %d misses: %d %s; the check told the holder's CPF", i, cpf, misses, r.status, r.raw)
				}
				misses++
			}
			if !stopped || misses > 3 {
				t.Fatalf("%d misses answered before the budget stopped the probes (stopped: %v)", misses, stopped)
			}
			looked := e.keyLookups()
			e.withdraw(surface, v1, v2, validWithdrawal(map[string]string{
				"external_id": `"sonda-mais"`, "creditParty": party("Cliente", "EMAIL", "cliente@example.com", validCPF)})).
				expectError(t, http.StatusTooManyRequests, codeRateLimited)
			if n := e.keyLookups(); n != looked {
				t.Fatalf("%d lookups reached the provider over the budget", n-looked)
			}
			if w := e.wallet(in.ID); w.Reserved != 0 || w.Available != money.FromReais(100, 0) {
				t.Fatalf("wallet after the probes: %+v", w)
			}
			if n := e.count(`SELECT count(*) FROM withdrawals WHERE integrator_id = $1`, in.ID); n != 0 {
				t.Fatalf("%d withdrawals recorded", n)
			}
		})
	}
}

// What would be refused anyway is refused before the recipient is looked
// up, spending nothing: a withdrawal the balance does not cover (checked,
// not reserved), an invalid body. A replay is answered as the first time
// without a lookup, over the budget too; a new withdrawal over it is 429
// with nothing reserved.
func TestSameHolderCheckRefusesBeforeItLooks(t *testing.T) {
	for _, surface := range []string{"v1", "v2"} {
		t.Run(surface, func(t *testing.T) {
			e := newEnv(t, func(s *setup) { s.cfg.KeyLookupsPerMinute, s.provider.Extensions = 3, true })
			in, v1, v2 := sameHolderAccount(e, 0)
			own := party("Cliente", "EMAIL", "cliente@example.com", "12429969408") // the key's holder, as the sandbox has it
			for i := range 5 {
				e.withdraw(surface, v1, v2, validWithdrawal(map[string]string{"external_id": fmt.Sprintf(`"sem-saldo-%d"`, i), "creditParty": own})).
					expectError(t, http.StatusUnprocessableEntity, codeInsufficientFunds)
				e.withdraw(surface, v1, v2, validWithdrawal(map[string]string{"amount": "-1", "creditParty": own})).
					expectError(t, http.StatusUnprocessableEntity, codeValidation)
			}
			if n := e.keyLookups(); n != 0 {
				t.Fatalf("%d lookups for withdrawals refused anyway", n)
			}

			e.fund(in.ID, money.FromReais(100, 0))
			first := validWithdrawal(map[string]string{"external_id": `"saque-1"`, "creditParty": own})
			created := e.withdraw(surface, v1, v2, first)
			if created.status != http.StatusCreated && created.status != http.StatusOK {
				t.Fatalf("withdrawal to the holder's own key: %d %s", created.status, created.raw)
			}
			// The budget of 3 is spent whole by one lookup of a key the DICT
			// does not have.
			e.call(http.MethodGet, "/api/v1/pix-keys/inexistente%40example.com", v1, nil).expectError(t, http.StatusNotFound, codeKeyNotFound)
			looked := e.keyLookups()
			replay := e.withdraw(surface, v1, v2, first)
			if id := func(r reply) string { return r.str("id") + r.str("transactionId") }; replay.status != http.StatusOK || id(replay) != id(created) {
				t.Fatalf("replay over the budget: %d %s; want the first answer %s", replay.status, replay.raw, created.raw)
			}
			r := e.withdraw(surface, v1, v2, validWithdrawal(map[string]string{"external_id": `"saque-2"`, "creditParty": own})).
				expectError(t, http.StatusTooManyRequests, codeRateLimited)
			if r.header.Get("Retry-After") == "" {
				t.Fatalf("429 without Retry-After: %s", r.raw)
			}
			if n := e.keyLookups(); n != looked {
				t.Fatalf("%d lookups for a replay and a withdrawal over the budget", n-looked)
			}
			if w := e.wallet(in.ID); w.Reserved != money.FromReais(25, 10) {
				t.Fatalf("wallet %+v: only the first withdrawal is reserved", w)
			}
		})
	}
}
