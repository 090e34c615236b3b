package postback

import (
	"github.com/google/uuid"

	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

// infractionBody is a MED infraction in the family's notification shape,
// as PixGate's extension of it (transactionType INFRACTION, see
// docs/postbacks.md): transactionId is PixGate's id of the infraction
// (the one its API takes), pix_id and external_id the disputed charge's,
// amount what the payer disputes, description the payer's report, dueDate
// when the analysis is due, dateApproval when it closed. PixGate's
// additions: what it blocked of the integrator's money and what it could
// not (shortfall).
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
	t := contract.Transaction{TransactionType: contract.TypeInfraction, TransactionID: inf.ID.String(), ExternalID: c.ExternalID,
		PixID: inf.ChargePixID, Amount: inf.Amount, PaymentType: contract.PaymentTypePix, Status: string(inf.Status),
		Description: deref(inf.Reason), DateCreated: contract.FormatDatePtr(inf.ReportedAt), DueDate: contract.FormatDatePtr(inf.DueAt),
		DateApproval: contract.FormatDatePtr(inf.ClosedAt), AnalysisDetails: deref(inf.Analysis)}
	if t.PixID == "" && c.PixID != nil {
		t.PixID = *c.PixID
	}
	if t.DateCreated == "" {
		t.DateCreated = contract.FormatDate(inf.CreatedAt)
	}
	b := infractionBody{Transaction: t, ID: inf.ID, ChargeID: c.ID, BlockedAmount: inf.Blocked, Shortfall: inf.Shortfall(),
		MedReturnID: inf.MedReturnID}
	return Event{ResourceType: "infraction", ResourceID: inf.ID, IntegratorID: inf.IntegratorID, Name: string(inf.Status),
		URL: *c.PostbackURL, Body: body(b)}, true
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
