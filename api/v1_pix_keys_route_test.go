package api

import (
	"context"
	"net/http"
	"testing"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/providerclient/sandbox"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

// routedIntegrator is a same-holder integrator, funded, whose charges and
// withdrawals go to provider alone (recorded here; the process's fleet
// must hold a provider of that name).
func (e *env) routedIntegrator(name, provider string) (storage.Integrator, string) {
	e.t.Helper()
	ctx := context.Background()
	in, token := e.integrator(name, money.Percent(0), money.Fixed(0))
	if _, err := e.db.AddProvider(ctx, storage.Provider{Name: provider, Kind: "family", URL: "https://" + provider + ".example"}); err != nil {
		e.t.Fatal(err)
	}
	_, err := e.db.SetRoute(ctx, storage.Route{IntegratorID: &in.ID,
		Charges: []storage.RouteStep{{Provider: provider}}, Withdrawals: []string{provider}})
	if err != nil {
		e.t.Fatal(err)
	}
	if _, err := e.db.SetSameHolder(ctx, in.ID, true); err != nil {
		e.t.Fatal(err)
	}
	e.fund(in.ID, money.FromReais(100, 0))
	return in, token
}

// keyLookups is how many key lookups reached the sandbox, whichever
// provider of the fleet sent them.
func (e *env) keyLookups() int { return e.sb.Stats().Requests[contract.PathKeyLookup] }

// A key lookup, and the same-holder check, go through the integrator's own
// withdrawal route, never through a provider outside it: routed to a
// provider without lookups (as efi, whose API reads no key), a lookup is
// 501 and the check takes the no-lookup rule, the default provider (which
// has lookups) never asked; routed to a provider with lookups, the lookup
// is that provider's, whatever the default provider offers.
func TestKeyLookupFollowsTheIntegratorsRoute(t *testing.T) {
	holder, err := sandbox.LookupKey("EMAIL", "cliente@example.com")
	if err != nil {
		t.Fatal(err)
	}

	t.Run("a route without lookups", func(t *testing.T) {
		e := newEnv(t, func(s *setup) {
			s.fleet = []string{"default", "efi"}
			s.member = func(name string, c *providerclient.Config) { c.Extensions = name == "default" }
		})
		_, tok := e.routedIntegrator("Loja Efi", "efi")
		e.call(http.MethodGet, "/api/v1/pix-keys/cliente%40example.com", tok, nil).expectError(t, http.StatusNotImplemented, codeNotSupported)
		// The key is the holder's, but nothing on the route can show it.
		e.call(http.MethodPost, "/api/v1/withdrawals", tok, validWithdrawal(map[string]string{
			"external_id": `"saque-email"`, "creditParty": party("Cliente", "EMAIL", "cliente@example.com", holder.TaxID)})).
			expectError(t, http.StatusUnprocessableEntity, "not_same_holder")
		e.call(http.MethodPost, "/api/v1/withdrawals", tok, validWithdrawal(map[string]string{
			"creditParty": party("Cliente", "CPF", holder.TaxID, holder.TaxID)})).expect(t, http.StatusCreated)
		if n := e.keyLookups(); n != 0 {
			t.Fatalf("%d lookups reached a provider; the integrator's route has none with lookups", n)
		}

		_, plain := e.integrator("Loja Padrão", money.Percent(0), money.Fixed(0))
		e.call(http.MethodGet, "/api/v1/pix-keys/cliente%40example.com", plain, nil).expect(t, http.StatusOK)
		if n := e.keyLookups(); n != 1 {
			t.Fatalf("%d lookups for the integrator on the default route, want 1", n)
		}
	})

	t.Run("a route with lookups", func(t *testing.T) {
		e := newEnv(t, func(s *setup) {
			s.fleet = []string{"default", "b"}
			s.member = func(name string, c *providerclient.Config) { c.Extensions = name == "b" }
		})
		_, tok := e.routedIntegrator("Loja B", "b")
		r := e.call(http.MethodGet, "/api/v1/pix-keys/cliente%40example.com", tok, nil).expect(t, http.StatusOK)
		if r.str("holder.name") != holder.Name {
			t.Fatalf("holder %q, want %q: %s", r.str("holder.name"), holder.Name, r.raw)
		}
		e.call(http.MethodPost, "/api/v1/withdrawals", tok, validWithdrawal(map[string]string{
			"creditParty": party("Cliente", "EMAIL", "cliente@example.com", holder.TaxID)})).expect(t, http.StatusCreated)
		if n := e.keyLookups(); n != 2 {
			t.Fatalf("%d lookups, want 2 (the lookup and the check, both b's)", n)
		}

		_, plain := e.integrator("Loja Padrão", money.Percent(0), money.Fixed(0))
		e.call(http.MethodGet, "/api/v1/pix-keys/cliente%40example.com", plain, nil).expectError(t, http.StatusNotImplemented, codeNotSupported)
		if n := e.keyLookups(); n != 2 {
			t.Fatalf("%d lookups; the default route's provider has none", n)
		}
	})
}
