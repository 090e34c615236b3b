package api

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

// openInfraction opens a MED infraction on the paid charge of pixID,
// disputing its whole amount, as the worker does once the provider
// confirms one, and returns its id.
func (e *env) openInfraction(pixID string) uuid.UUID {
	e.t.Helper()
	ctx := context.Background()
	c, err := e.db.ChargeByPixID(ctx, pixID)
	if err != nil {
		e.t.Fatal(err)
	}
	id := uuid.Must(uuid.NewV7())
	err = e.db.InTx(ctx, func(tx *storage.Tx) error {
		_, _, err := tx.OpenInfraction(ctx, storage.NewInfraction{ID: id, ChargeID: c.ID, ProviderID: "inf-" + pixID, Amount: c.Amount})
		return err
	})
	if err != nil {
		e.t.Fatal(err)
	}
	return id
}

// The infractions of an account: listed and filtered, read, defended once
// (kept, since this env's provider takes no defense); another account's
// is 404; the blocked money shows in the balance and no refund of the
// disputed charge is taken.
func TestV1Infractions(t *testing.T) {
	e := newEnv(t)
	in, v1 := e.integrator("Loja MED", money.Percent(0), money.Fixed(0))
	_, other := e.integrator("Loja Vizinha", money.Percent(0), money.Fixed(0))
	token := e.accessToken(v1)
	pixID := e.paidV2Charge(in.ID, token, "pedido-disputado", "30")
	inf := e.openInfraction(pixID)

	list := e.call(http.MethodGet, "/api/v1/infractions?status=open", v1, nil).expect(t, http.StatusOK)
	if d := list.data(); len(d) != 1 || d[0]["id"] != inf.String() || d[0]["blocked_amount"] != json.Number("30.00") ||
		d[0]["shortfall"] != json.Number("0.00") {
		t.Fatalf("list: %s", list.raw)
	}
	if r := e.call(http.MethodGet, "/api/v1/infractions?status=AGREED", v1, nil).expect(t, http.StatusOK); len(r.data()) != 0 {
		t.Fatalf("AGREED list: %s", r.raw)
	}
	e.call(http.MethodGet, "/api/v1/infractions?status=LOST", v1, nil).expect(t, http.StatusUnprocessableEntity)
	e.call(http.MethodGet, "/api/v1/infractions/"+inf.String(), other, nil).expect(t, http.StatusNotFound)
	if r := e.call(http.MethodGet, "/api/v1/balance", v1, nil).expect(t, http.StatusOK); r.get("blocked_balance") != "30.00" || r.get("available_balance") != "0.00" ||
		r.get("debt_balance") != "0.00" {
		t.Fatalf("balance: %s", r.raw)
	}
	if r := e.call(http.MethodPost, "/api/v1/charges/pedido-disputado/refunds", v1, `{"amount": 1}`).expect(t, http.StatusUnprocessableEntity); r.str("code") != "infraction_open" {
		t.Fatalf("refund of a disputed charge: %s", r.raw)
	}
	e.call(http.MethodPost, "/api/v1/infractions/"+inf.String()+"/defense", v1, `{}`).expect(t, http.StatusUnprocessableEntity)
	d := e.call(http.MethodPost, "/api/v1/infractions/"+inf.String()+"/defense", v1, `{"text": "compra autorizada"}`).expect(t, http.StatusOK)
	if d.get("defense.text") != "compra autorizada" || d.get("defense.forwarded") != false {
		t.Fatalf("defense: %s", d.raw)
	}
	if r := e.call(http.MethodPost, "/api/v1/infractions/"+inf.String()+"/defense", v1, `{"text": "de novo"}`).expect(t, http.StatusConflict); r.str("code") != "defense_exists" {
		t.Fatalf("second defense: %s", r.raw)
	}
	e.call(http.MethodPost, "/api/v1/infractions/"+inf.String()+"/defense", other, `{"text": "x"}`).expect(t, http.StatusNotFound)
}
