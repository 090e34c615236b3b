package postback

import (
	"github.com/google/uuid"

	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/providerclient/contractview"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

// infractionBody is a MED infraction in the family's notification shape
// (contractview.Infraction) with PixGate's additions: what it blocked of
// the integrator's money and what it could not (shortfall).
type infractionBody struct {
	contract.Transaction
	ID            uuid.UUID   `json:"id"`
	ChargeID      uuid.UUID   `json:"charge_id"`
	BlockedAmount money.Money `json:"blocked_amount"`
	Shortfall     money.Money `json:"shortfall"`
	MedReturnID   *uuid.UUID  `json:"med_return_id,omitempty"`
}

// ForInfraction is the postback of an infraction's current status (OPEN,
// AGREED, DISAGREED or CANCELLED), to its charge's postbackUrl; ok is
// false when the charge has none.
func ForInfraction(inf storage.Infraction, c storage.Charge) (Event, bool) {
	if c.PostbackURL == nil || *c.PostbackURL == "" {
		return Event{}, false
	}
	b := infractionBody{Transaction: contractview.Infraction(inf, c), ID: inf.ID, ChargeID: c.ID, BlockedAmount: inf.Blocked, Shortfall: inf.Shortfall(),
		MedReturnID: inf.MedReturnID}
	return Event{ResourceType: "infraction", ResourceID: inf.ID, IntegratorID: inf.IntegratorID, Name: string(inf.Status),
		URL: *c.PostbackURL, Body: body(b)}, true
}
