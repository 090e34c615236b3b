package api

import (
	"context"
	"net/http"
	"testing"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

// A withdrawal over the per-PIX limit of every provider of the route is
// 422 over_provider_limit naming amount, nothing reserved nor written;
// a replay of one made before the limit is answered as the first time.
func TestWithdrawalOverEveryProvidersLimit(t *testing.T) {
	e := newEnv(t)
	in, token := e.integrator("Loja Limite", money.Percent(0), money.Fixed(50))
	e.fund(in.ID, money.FromReais(100, 0))
	ctx := context.Background()
	first := e.call(http.MethodPost, "/api/v1/withdrawals", token, validWithdrawal(map[string]string{"external_id": `"antes"`})).expect(t, 201)

	if _, err := e.db.AddProvider(ctx, storage.Provider{Name: "capped", Kind: "family", URL: "http://127.0.0.1:1",
		Limit: storage.PixLimit{Max: money.FromReais(20, 0)}}); err != nil {
		t.Fatal(err)
	}
	id := in.ID
	if _, err := e.db.SetRoute(ctx, storage.Route{IntegratorID: &id, Charges: []storage.RouteStep{{Provider: storage.DefaultProvider}},
		Withdrawals: []string{"capped"}}); err != nil {
		t.Fatal(err)
	}
	before, rows := e.wallet(in.ID), e.count(`SELECT count(*) FROM withdrawals`)
	r := e.call(http.MethodPost, "/api/v1/withdrawals", token, validWithdrawal(map[string]string{"external_id": `"depois"`}))
	r.expectError(t, 422, "over_provider_limit")
	if _, ok := r.fieldErrors()["amount"]; !ok {
		t.Fatalf("errors does not name amount: %s", r.raw)
	}
	if w := e.wallet(in.ID); w != before || e.count(`SELECT count(*) FROM withdrawals`) != rows {
		t.Fatalf("wallet %+v (was %+v), or a row written", w, before)
	}
	again := e.call(http.MethodPost, "/api/v1/withdrawals", token, validWithdrawal(map[string]string{"external_id": `"antes"`})).expect(t, 200)
	if again.str("id") != first.str("id") {
		t.Fatalf("replay %s, first %s", again.raw, first.raw)
	}
	// Within the limit, the capped provider takes it.
	ok := e.call(http.MethodPost, "/api/v1/withdrawals", token, validWithdrawal(map[string]string{"external_id": `"pequeno"`, "amount": "20.00"})).expect(t, 201)
	if ok.str("provider") != "capped" {
		t.Fatalf("provider %q, want capped", ok.str("provider"))
	}
}
