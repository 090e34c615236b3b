package api

import (
	"net/http"
	"testing"

	"github.com/pixgate/pixgate/storage/money"
)

func TestGetBalance(t *testing.T) {
	e := newEnv(t)
	in, token := e.integrator("Loja Saldo", money.Percent(15000), money.Fixed(50))
	e.fund(in.ID, money.FromReais(100, 0))
	e.call(http.MethodPost, "/api/v1/withdrawals", token, validWithdrawal(map[string]string{"amount": "10.00"})).expect(t, 201)

	r := e.call(http.MethodGet, "/api/v1/balance", token, nil).expect(t, 200)
	want := map[string]any{
		"available_balance": "89.50", "pending_balance": "0.00", "reserved_balance": "10.50", "currency": "BRL",
		"account.name": "Loja Saldo", "account.email": "loja.saldo@example.com",
		"fees.cashin.type": "percent", "fees.cashin.value": "1.5",
		"fees.cashout.type": "fixed", "fees.cashout.value": "0.50",
	}
	for path, w := range want {
		if got := r.get(path); got != w {
			t.Errorf("%s = %v, want %v", path, got, w)
		}
	}
	if r.get("account.id") == nil || r.str("fees.cashin.note") == "" || r.str("fees.cashout.note") == "" {
		t.Fatalf("balance: %s", r.raw)
	}
}
