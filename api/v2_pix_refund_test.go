package api

import (
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

// paidV2Charge creates a charge through /v2 and records it paid.
func (e *env) paidV2Charge(integratorID int64, token, externalID, amount string) string {
	e.t.Helper()
	pixID := e.v2("/v2/pix/qrcode", token, familyCharge(externalID, amount)).expect(e.t, http.StatusOK).str("transactionId")
	e.markPaid(integratorID, pixID)
	return pixID
}

func TestV2Refund(t *testing.T) {
	e := newEnv(t)
	in, v1 := e.integrator("Loja Estorno", money.Percent(15_000), money.Fixed(50))
	token := e.accessToken(v1)
	pixID := e.paidV2Charge(in.ID, token, "pedido-1", "100")
	// The net of the charge (98.50) does not cover refunding all of it with
	// the fees; the rest comes from the wallet.
	e.fund(in.ID, money.FromReais(10, 0))
	before := e.wallet(in.ID)

	r := e.v2("/v2/pix/refund", token, map[string]any{"pix_id": pixID, "amount": 40, "description": "devolução parcial"}).
		expect(t, http.StatusOK).noNull(t)
	if r.str("pix_id") != pixID || r.str("status") != "PROCESSING" || r.get("amount") != "40.00" || len(r.str("transactionId")) != 32 {
		t.Fatalf("refund answer %s", r.raw)
	}
	if w := e.wallet(in.ID); w.Available != before.Available-4050 || w.Reserved != 4050 {
		t.Fatalf("wallet %+v, want 40.00 + 0.50 reserved at once", w)
	}
	c := e.v2("/v2/consult-transaction", token, map[string]any{"pix_id": r.str("transactionId")}).expect(t, http.StatusOK).noNull(t)
	if c.str("requestBody.transactionType") != "REFUND" || c.str("requestBody.pix_id") != pixID || c.str("requestBody.status") != "PROCESSING" ||
		c.str("requestBody.description") != "devolução parcial" {
		t.Fatalf("consult refund %s", c.raw)
	}

	// Refused, with nothing reserved: above what is left, an unpaid charge,
	// another integrator's charge, an unknown one.
	unpaid := e.v2("/v2/pix/qrcode", token, familyCharge("pedido-2", "30")).expect(t, http.StatusOK).str("transactionId")
	other, otherV1 := e.integrator("Outra Loja", money.Percent(0), money.Fixed(0))
	othersCharge := e.paidV2Charge(other.ID, e.accessToken(otherV1), "pedido-x", "50")
	reserved := e.wallet(in.ID)
	for _, tt := range []struct {
		name   string
		body   map[string]any
		status int
		code   string
		field  string
	}{
		{"above what is left", map[string]any{"pix_id": pixID, "amount": 60.01}, 422, codeValidation, "amount"},
		{"an unpaid charge", map[string]any{"pix_id": unpaid, "amount": 1}, 422, codeValidation, "pix_id"},
		{"another integrator's charge", map[string]any{"pix_id": othersCharge, "amount": 1}, 404, codeNotFound, ""},
		{"an unknown charge", map[string]any{"pix_id": "k3v9x2m8q1w7e5r4t6y0u2i8o3p5a7s1", "amount": 1}, 404, codeNotFound, ""},
		{"no pix_id", map[string]any{"amount": 1}, 422, codeValidation, "pix_id"},
		{"a zero amount", map[string]any{"pix_id": pixID, "amount": 0}, 422, codeValidation, "amount"},
	} {
		r := e.v2("/v2/pix/refund", token, tt.body).expectError(t, tt.status, tt.code)
		if _, ok := r.fieldErrors()[tt.field]; tt.field != "" && !ok {
			t.Errorf("%s: errors do not name %s: %s", tt.name, tt.field, r.raw)
		}
	}
	if w := e.wallet(in.ID); w != reserved {
		t.Fatalf("refused refunds changed the wallet: %+v, was %+v", w, reserved)
	}
	if n := e.count(`SELECT count(*) FROM refunds`); n != 1 {
		t.Fatalf("%d refunds, want 1", n)
	}

	// The rest, with an external_id: a retry is the same refund.
	rest := map[string]any{"pix_id": pixID, "amount": 60, "external_id": "estorno-2"}
	first := e.v2("/v2/pix/refund", token, rest).expect(t, http.StatusOK)
	again := e.v2("/v2/pix/refund", token, rest).expect(t, http.StatusOK)
	if first.str("transactionId") != again.str("transactionId") || first.str("external_id") != "estorno-2" {
		t.Fatalf("retry %s, first %s", again.raw, first.raw)
	}
	if ch, _ := e.db.Charge(t.Context(), in.ID, "pedido-1"); ch.RefundedAmount != ch.Amount || ch.Status != storage.ChargePaid {
		t.Fatalf("charge %s refunded %s; REFUNDED comes when the refunds complete", ch.Status, ch.RefundedAmount)
	}
	if v, err := e.db.Audit(t.Context()); err != nil || len(v) > 0 {
		t.Fatalf("audit %v %v", v, err)
	}
}

// Partial refunds sent at once never add up to more than the charge.
func TestV2ConcurrentRefunds(t *testing.T) {
	e := newEnv(t)
	in, v1 := e.integrator("Loja Corrida", money.Percent(0), money.Fixed(0))
	token := e.accessToken(v1)
	pixID := e.paidV2Charge(in.ID, token, "pedido-1", "20")
	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		status = map[int]int{}
	)
	for i := range 30 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := e.v2("/v2/pix/refund", token, map[string]any{"pix_id": pixID, "amount": 1, "external_id": fmt.Sprint("estorno-", i)})
			mu.Lock()
			status[r.status]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	if status[200] != 20 || status[422] != 10 {
		t.Fatalf("answers %v, want 20 × 200 and 10 × 422", status)
	}
	if ch, _ := e.db.Charge(t.Context(), in.ID, "pedido-1"); ch.RefundedAmount != ch.Amount {
		t.Fatalf("refunded %s of %s", ch.RefundedAmount, ch.Amount)
	}
	if w := e.wallet(in.ID); w.Available != 0 || w.Reserved != 2000 {
		t.Fatalf("wallet %+v", w)
	}
	if v, err := e.db.Audit(t.Context()); err != nil || len(v) > 0 {
		t.Fatalf("audit %v %v", v, err)
	}
}

// The refund window was counted on the real clock while the rest of the
// API used its injected one: the server's clock decides when a charge is
// too old to refund.
func TestV2RefundWindowFollowsTheServersClock(t *testing.T) {
	clk := &testClock{t: time.Now()}
	e := newEnv(t, func(s *setup) { s.clock = clk.now })
	in, v1 := e.integrator("Loja Antiga", money.Percent(0), money.Fixed(0))
	pixID := e.paidV2Charge(in.ID, e.accessToken(v1), "pedido-velho", "10")
	clk.advance(91 * 24 * time.Hour)
	before := e.wallet(in.ID)
	e.v2("/v2/pix/refund", e.accessToken(v1), map[string]any{"pix_id": pixID, "amount": 1}).
		expectError(t, 422, codeValidation)
	if w := e.wallet(in.ID); w != before {
		t.Fatalf("wallet %+v after a refused refund, want %+v", w, before)
	}
}
