package api

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

// TestBalanceShowsHeldCashInAsPending: under a settlement hold a paid
// charge's net is in pending_balance (v2: pending), its record says when it
// becomes available, and once released it is in available_balance.
func TestBalanceShowsHeldCashInAsPending(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	in, token := e.integrator("Loja Retida", money.Percent(15000), money.Fixed(50))
	if _, _, err := e.db.SetCashInHold(ctx, in.ID, 2*time.Minute); err != nil {
		t.Fatal(err)
	}
	created := e.call(http.MethodPost, "/api/v1/charges", token, validCharge(map[string]string{"amount": "100.00"})).expect(t, 201)
	id := uuid.MustParse(created.str("id"))
	paidAt := time.Now().Truncate(time.Second)
	if err := e.db.InTx(ctx, func(tx *storage.Tx) error {
		_, _, err := tx.MarkChargePaid(ctx, id, storage.Settlement{PixID: created.str("pix_id"), At: paidAt})
		return err
	}); err != nil {
		t.Fatal(err)
	}

	b := e.call(http.MethodGet, "/api/v1/balance", token, nil).expect(t, 200)
	if b.get("pending_balance") != "98.50" || b.get("available_balance") != "0.00" {
		t.Fatalf("balance while held: %s", b.raw)
	}
	v2 := e.accessToken(token)
	if r := e.call(http.MethodPost, "/v2/balance", v2, nil).expect(t, 200); r.raw != `{"balance":98.50,"available":0.00,"pending":98.50,"currency":"BRL"}` {
		t.Fatalf("v2 balance while held: %s", r.raw)
	}
	c := e.call(http.MethodGet, "/api/v1/charges/"+id.String(), token, nil).expect(t, 200)
	if want := paidAt.Add(2 * time.Minute).UTC().Format(time.RFC3339); c.get("available_at") != want {
		t.Fatalf("available_at = %v, want %s", c.get("available_at"), want)
	}

	if _, err := e.db.Pool().Exec(ctx, `UPDATE charges SET available_at = now() - interval '1 second' WHERE id = $1`, id); err != nil {
		t.Fatal(err)
	}
	if r, err := e.db.ReleaseCharge(ctx, id); err != nil || r != 9850 {
		t.Fatalf("release = %v, %v", r, err)
	}
	b = e.call(http.MethodGet, "/api/v1/balance", token, nil).expect(t, 200)
	if b.get("pending_balance") != "0.00" || b.get("available_balance") != "98.50" {
		t.Fatalf("balance after release: %s", b.raw)
	}
	if r := e.call(http.MethodPost, "/v2/balance", v2, nil).expect(t, 200); r.raw != `{"balance":98.50,"available":98.50,"pending":0.00,"currency":"BRL"}` {
		t.Fatalf("v2 balance after release: %s", r.raw)
	}
}
