package api

import (
	"net/http"
	"testing"

	"github.com/pixgate/pixgate/storage/money"
)

// A refund of a charge under an open MED infraction was refused with
// "charge must not name a charge under an open MED infraction": the field
// named the charge, then the sentence named a charge again. The refusals
// about the charge now read as sentences on v1, which names the charge in
// the path, and on v2, whose pix_id names it.
func TestRefundRefusalsReadAsSentences(t *testing.T) {
	e := newEnv(t)
	in, v1 := e.integrator("Loja Frase", money.Percent(0), money.Fixed(0))
	token := e.accessToken(v1)
	pixID := e.paidV2Charge(in.ID, token, "pedido-em-disputa", "30")
	e.openInfraction(pixID)
	const blocked = ": its money is blocked until the infraction closes"

	r := e.call(http.MethodPost, "/api/v1/charges/pedido-em-disputa/refunds", v1, `{"amount": 1}`).expectError(t, http.StatusUnprocessableEntity, "infraction_open")
	if want := "charge is under an open MED infraction" + blocked; r.str("message") != want {
		t.Errorf("v1 message %q, want %q", r.str("message"), want)
	}
	if got, _ := r.fieldErrors()["charge"].([]any); len(got) != 1 || got[0] != "is under an open MED infraction"+blocked {
		t.Errorf("v1 errors.charge: %v (%s)", got, r.raw)
	}
	r = e.v2("/v2/pix/refund", token, map[string]any{"pix_id": pixID, "amount": 1}).expectError(t, http.StatusUnprocessableEntity, "infraction_open")
	if want := "pix_id names a charge under an open MED infraction" + blocked; r.str("message") != want {
		t.Errorf("v2 message %q, want %q", r.str("message"), want)
	}

	pending := e.call(http.MethodPost, "/api/v1/charges", v1, validCharge(nil)).expect(t, http.StatusCreated)
	r = e.call(http.MethodPost, "/api/v1/charges/"+pending.str("id")+"/refunds", v1, `{"amount": 1}`).expectError(t, http.StatusUnprocessableEntity, codeValidation)
	if want := "charge must be PAID; this one is PENDING"; r.str("message") != want {
		t.Errorf("v1 refund of a pending charge: %q, want %q", r.str("message"), want)
	}
	r = e.v2("/v2/pix/refund", token, map[string]any{"pix_id": pending.str("pix_id"), "amount": 1}).expectError(t, http.StatusUnprocessableEntity, codeValidation)
	if want := "pix_id must name a PAID charge; this one is PENDING"; r.str("message") != want {
		t.Errorf("v2 refund of a pending charge: %q, want %q", r.str("message"), want)
	}
}
