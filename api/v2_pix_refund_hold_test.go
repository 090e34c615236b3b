package api

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

// TestV2RefundOfHeldChargeComesFromPending: a refund of a charge still under
// the settlement hold takes its money from the charge's held net in
// pending, and only what that does not cover from available.
func TestV2RefundOfHeldChargeComesFromPending(t *testing.T) {
	e := newEnv(t)
	in, v1 := e.integrator("Loja Retida", money.Percent(15_000), money.Fixed(50))
	if _, _, err := e.db.SetCashInHold(t.Context(), in.ID, time.Hour); err != nil {
		t.Fatal(err)
	}
	token := e.accessToken(v1)
	pixID := e.paidV2Charge(in.ID, token, "pedido-1", "100")
	if w := e.wallet(in.ID); w != (storage.Wallet{Pending: 9850}) {
		t.Fatalf("wallet %+v, want the net pending", w)
	}

	e.v2("/v2/pix/refund", token, map[string]any{"pix_id": pixID, "amount": 40}).expect(t, http.StatusOK)
	if w := e.wallet(in.ID); w != (storage.Wallet{Pending: 5800, Reserved: 4050}) {
		t.Fatalf("wallet %+v, want 40.00 + 0.50 out of pending", w)
	}
	if r := e.v2("/v2/balance", token, nil).expect(t, http.StatusOK); r.raw != `{"balance":58.00,"available":0.00,"pending":58.00,"currency":"BRL"}` {
		t.Fatalf("v2 balance %s", r.raw)
	}

	// The rest (60.00 + 0.50) is more than the 58.00 still held: the
	// difference must be available, or the refund is refused whole.
	rest := map[string]any{"pix_id": pixID, "amount": 60}
	r := e.v2("/v2/pix/refund", token, rest).expectError(t, http.StatusUnprocessableEntity, codeInsufficientFunds)
	if want := "this refund needs R$ 60.50 (amount plus fee); R$ 58.00 comes from the charge's pending balance, " +
		"and the available balance (R$ 0.00) does not cover the other R$ 2.50."; !strings.Contains(r.str("message"), want) {
		t.Fatalf("message %q, want it to say %q", r.str("message"), want)
	}
	if w := e.wallet(in.ID); w != (storage.Wallet{Pending: 5800, Reserved: 4050}) {
		t.Fatalf("refused refund changed the wallet: %+v", w)
	}
	e.fund(in.ID, money.FromReais(5, 0))
	e.v2("/v2/pix/refund", token, rest).expect(t, http.StatusOK)
	if w := e.wallet(in.ID); w != (storage.Wallet{Available: 250, Reserved: 10100}) {
		t.Fatalf("wallet %+v, want the held net and 2.50 of available reserved", w)
	}
	if v, err := e.db.Audit(t.Context()); err != nil || len(v) > 0 {
		t.Fatalf("audit %v %v", v, err)
	}
}
