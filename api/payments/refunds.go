package payments

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/tasks"
)

// RefundWindow is how long after its payment a charge can be refunded: the
// PIX rules' 90 days.
const RefundWindow = 90 * 24 * time.Hour

// RefundRequest is a validated refund request.
type RefundRequest struct {
	// PixID names the integrator's charge to refund.
	PixID       string
	Amount      money.Money
	Description *string
	// ExternalID, optional, is the integrator's reference for the refund
	// and makes a retry safe: the same request again is the same refund.
	ExternalID *string
	// chargeField is what the request names the charge by, for refusals:
	// "pix_id" (v2's body) unless RefundCharge set "charge" (v1's path).
	chargeField string
}

// fingerprint is ChargeRequest.fingerprint's rule for refunds.
func (r RefundRequest) fingerprint() []byte {
	return fingerprint(struct {
		Kind        string      `json:"k"`
		ExternalID  *string     `json:"e"`
		PixID       string      `json:"p"`
		Amount      money.Money `json:"a"`
		Description *string     `json:"d"`
	}{"refund/v1", r.ExternalID, r.PixID, r.Amount, r.Description})
}

// CreateRefund returns part or all of a paid charge to its payer, from the
// integrator's wallet. One SQL transaction locks the charge, judges it with
// refundable, adds the amount to what the charge has refunded, inserts the
// refund PROCESSING with the outbox row that asks a worker to send it, and
// reserves amount + cash-out fee. Refunds of one charge are judged one after
// the other, so concurrent ones never exceed it. Another integrator's
// charge is storage.ErrNotFound, as one that does not exist. created is
// false for a replay.
func (s *Service) CreateRefund(ctx context.Context, in storage.Integrator, r RefundRequest) (storage.Transfer, bool, error) {
	id, err := uuid.NewV7()
	if err != nil {
		return storage.Transfer{}, false, fmt.Errorf("refund id: %w", err)
	}
	return withOutboxSpan(ctx, tasks.RefundSendMessage(id, 0), func(m storage.OutboxMessage, tp string) (storage.Transfer, bool, error) {
		return s.store.CreateRefund(ctx, storage.NewRefund{
			ID: id, IntegratorID: in.ID, ChargePixID: r.PixID, ExternalID: r.ExternalID,
			Amount: r.Amount, Fee: in.CashOut.Compute(r.Amount), Description: r.Description,
			RequestHash: r.fingerprint(), TraceParent: tp,
			Outbox: []storage.OutboxMessage{m},
			Check:  func(c storage.Charge) error { return refundable(c, r, s.cfg.Now()) },
		})
	})
}

// RefundCharge is CreateRefund for the charge named by ref, its id or its
// external_id (v1 names it in the path). The refund is the one of the
// charge's pix_id, so the same external_id through v1 and v2 is one refund.
// A charge the provider never issued has no pix_id, and is not PAID.
func (s *Service) RefundCharge(ctx context.Context, in storage.Integrator, ref string, r RefundRequest) (storage.Transfer, bool, error) {
	ch, err := s.store.Charge(ctx, in.ID, ref)
	if err != nil {
		return storage.Transfer{}, false, err
	}
	r.chargeField = "charge"
	if ch.PixID == nil {
		return storage.Transfer{}, false, notPaid(r, ch)
	}
	r.PixID = *ch.PixID
	return s.CreateRefund(ctx, in, r)
}

// ChargeRefunds is one page of the refunds of the integrator's charge named
// by ref (its id or external_id), newest first.
func (s *Service) ChargeRefunds(ctx context.Context, integratorID int64, ref string, p storage.ListParams) ([]storage.Transfer, bool, error) {
	ch, err := s.store.Charge(ctx, integratorID, ref)
	if err != nil {
		return nil, false, err
	}
	p.IntegratorID, p.ChargeID = integratorID, &ch.ID
	return s.store.ListTransfers(ctx, storage.KindRefund, p)
}

// refundable says whether r's amount of charge c can be refunded at now: c
// is PAID, paid within RefundWindow, and the amount fits in what its
// refunds (those not failed) left of it.
func refundable(c storage.Charge, r RefundRequest, now time.Time) error {
	amount := r.Amount
	switch {
	case c.Status != storage.ChargePaid:
		return notPaid(r, c)
	case c.Disputed:
		return &RuleError{Rule: ErrChargeDisputed, Field: r.chargeName(),
			Detail: r.aboutCharge("is under an open MED infraction", "names a charge under an open MED infraction") +
				": its money is blocked until the infraction closes"}
	case c.PaidAt == nil || now.Sub(*c.PaidAt) > RefundWindow:
		return &RuleError{Rule: ErrRefundWindowClosed, Field: r.chargeName(),
			Detail: r.aboutCharge("must have been paid within the last 90 days", "must name a charge paid within the last 90 days")}
	case amount > c.Amount-c.RefundedAmount:
		return &RuleError{Rule: ErrRefundExceedsCharge, Field: "amount",
			Detail: fmt.Sprintf("must not exceed what is left to refund of the charge, R$ %s", c.Amount-c.RefundedAmount)}
	}
	return nil
}

// chargeName is the field that names the charge in r.
func (r RefundRequest) chargeName() string {
	if r.chargeField == "" {
		return "pix_id"
	}
	return r.chargeField
}

// aboutCharge is what a refusal says of the charge: of the charge itself
// when the field is one (v1's "charge is ..."), of the charge the field
// names otherwise (v2's "pix_id names a charge ...").
func (r RefundRequest) aboutCharge(ofCharge, ofName string) string {
	if r.chargeName() == "charge" {
		return ofCharge
	}
	return ofName
}

func notPaid(r RefundRequest, c storage.Charge) error {
	return &RuleError{Rule: ErrChargeNotPaid, Field: r.chargeName(),
		Detail: r.aboutCharge("must be PAID", "must name a PAID charge") + fmt.Sprintf("; this one is %s", c.Status)}
}
