package api

import (
	"net/http"
	"testing"

	"github.com/pixgate/pixgate/storage/money"
)

func TestV2Balance(t *testing.T) {
	e := newEnv(t)
	in, v1 := e.integrator("Loja Saldo", money.Percent(0), money.Fixed(0))
	other, otherV1 := e.integrator("Loja Vizinha", money.Percent(0), money.Fixed(50))
	e.fund(in.ID, 150_50)
	e.fund(other.ID, 7_00)
	tok := e.accessToken(v1)

	r := e.call(http.MethodPost, "/v2/balance", tok, nil).expect(t, http.StatusOK)
	if want := `{"balance":150.50,"available":150.50,"pending":0.00,"currency":"BRL"}`; r.raw != want {
		t.Fatalf("balance %s, want %s", r.raw, want)
	}
	if r.header.Get("Cache-Control") != "no-store" {
		t.Fatalf("headers %v", r.header)
	}
	// Any body, or none, is ignored; each integrator sees its own wallet.
	e.call(http.MethodPost, "/v2/balance", tok, `{"anything": 1}`).expect(t, http.StatusOK)
	r = e.call(http.MethodPost, "/v2/balance", e.accessToken(otherV1), nil, "Content-Type", "").expect(t, http.StatusOK)
	if r.get("balance") != "7.00" || r.get("available") != "7.00" {
		t.Fatalf("the other integrator's balance: %s", r.raw)
	}

	// Money reserved for a transfer in flight (25.10 + 0.50 fee) is in no
	// figure.
	e.fund(other.ID, 20_00)
	e.call(http.MethodPost, "/api/v1/withdrawals", otherV1, validWithdrawal(nil)).expect(t, http.StatusCreated)
	r = e.call(http.MethodPost, "/v2/balance", e.accessToken(v1), nil).expect(t, http.StatusOK)
	if r.get("balance") != "150.50" {
		t.Fatalf("after the other integrator's withdrawal: %s", r.raw)
	}
	r = e.call(http.MethodPost, "/v2/balance", e.accessToken(otherV1), nil).expect(t, http.StatusOK)
	if r.get("balance") != "1.40" || r.get("available") != "1.40" || r.get("pending") != "0.00" {
		t.Fatalf("balance with a withdrawal in flight: %s", r.raw)
	}
}
