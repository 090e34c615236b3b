package api

import (
	"encoding/json"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

// timestamp renders as RFC 3339 in UTC, to the second.
type timestamp time.Time

func (t timestamp) MarshalJSON() ([]byte, error) {
	return []byte(`"` + time.Time(t).UTC().Format(time.RFC3339) + `"`), nil
}

func timePtr(t *time.Time) *timestamp {
	if t == nil {
		return nil
	}
	ts := timestamp(*t)
	return &ts
}

// chargeView is the v1 charge record. Every key is always present (null
// when unknown), so integrators can rely on the shape.
type chargeView struct {
	ID             string          `json:"id"`
	ExternalID     string          `json:"external_id"`
	Amount         money.Money     `json:"amount"`
	Fee            money.Money     `json:"fee"`
	NetAmount      money.Money     `json:"net_amount"`
	Status         string          `json:"status"`
	PixID          *string         `json:"pix_id"`
	QRCode         *string         `json:"qrcode"`
	ExpiresAt      *timestamp      `json:"expires_at"`
	Payer          payerView       `json:"payer"`
	PayerQuestion  *string         `json:"payerQuestion"`
	PostbackURL    *string         `json:"postbackUrl"`
	Split          json.RawMessage `json:"split"`
	RefundedAmount money.Money     `json:"refunded_amount"`
	FailureReason  *string         `json:"failure_reason"`
	CreatedAt      timestamp       `json:"created_at"`
	UpdatedAt      timestamp       `json:"updated_at"`
	PaidAt         *timestamp      `json:"paid_at"`
	EndToEndID     *string         `json:"end_to_end_id"`
	// AvailableAt is when the net leaves pending_balance for
	// available_balance (paid_at plus the integrator's settlement hold).
	AvailableAt *timestamp `json:"available_at"`
	// ReturnedReason says why PixGate returned the payment to its payer
	// (same holder); Disputed, that a MED infraction on it is open.
	ReturnedReason *string `json:"returned_reason"`
	Disputed       bool    `json:"disputed"`
	// Provider names the provider that holds the charge.
	Provider string `json:"provider"`
	// Due is a due-date charge's terms and what they ask today; null for
	// an immediate charge.
	Due *dueView `json:"due"`
}

type payerView struct {
	Name     string  `json:"name"`
	Document string  `json:"document"`
	Email    *string `json:"email"`
}

// viewCharge is the v1 charge record, a due-date charge's amount due as
// of the API's clock.
func (s *Server) viewCharge(c storage.Charge) chargeView {
	return chargeView{
		ID: c.ID.String(), ExternalID: c.ExternalID,
		Amount: c.Amount, Fee: c.Fee, NetAmount: c.Net(), Status: string(c.Status),
		PixID: c.PixID, QRCode: c.QRCode, ExpiresAt: timePtr(c.ExpiresAt),
		Payer:         payerView{Name: c.Payer.Name, Document: c.Payer.Document, Email: c.Payer.Email},
		PayerQuestion: c.PayerQuestion, PostbackURL: c.PostbackURL, Split: nullIfEmpty(c.Split),
		RefundedAmount: c.RefundedAmount, FailureReason: c.FailureReason,
		CreatedAt: timestamp(c.CreatedAt), UpdatedAt: timestamp(c.UpdatedAt), PaidAt: timePtr(c.PaidAt),
		EndToEndID:     c.EndToEndID,
		AvailableAt:    timePtr(c.AvailableAt),
		ReturnedReason: c.ReturnedReason, Disputed: c.Disputed, Provider: c.Provider,
		Due: viewDue(c, s.now()),
	}
}

// withdrawalView is the v1 withdrawal record.
type withdrawalView struct {
	ID            string          `json:"id"`
	ExternalID    *string         `json:"external_id"`
	Amount        money.Money     `json:"amount"`
	Fee           money.Money     `json:"fee"`
	Total         money.Money     `json:"total"`
	Status        string          `json:"status"`
	CreditParty   creditPartyView `json:"creditParty"`
	Description   *string         `json:"description"`
	PostbackURL   *string         `json:"postbackUrl"`
	PixID         string          `json:"pix_id"`
	EndToEndID    *string         `json:"end_to_end_id"`
	FailureReason *string         `json:"failure_reason"`
	CreatedAt     timestamp       `json:"created_at"`
	UpdatedAt     timestamp       `json:"updated_at"`
	FinishedAt    *timestamp      `json:"finished_at"`
	Provider      string          `json:"provider"`
	DueAt         *timestamp      `json:"due_at"`
	// BatchID names the batch a withdrawal was created in; absent for one
	// created alone.
	BatchID *string `json:"batch_id,omitempty"`
}

type creditPartyView struct {
	Name    string `json:"name"`
	KeyType string `json:"keyType"`
	Key     string `json:"key"`
	TaxID   string `json:"taxId"`
}

func viewWithdrawal(w storage.Transfer) withdrawalView {
	cp := w.CreditParty
	return withdrawalView{
		ID: w.ID.String(), ExternalID: w.ExternalID,
		Amount: w.Amount, Fee: w.Fee, Total: w.Amount + w.Fee, Status: string(w.Status),
		CreditParty: creditPartyView{Name: cp.Name, KeyType: cp.KeyType, Key: cp.Key, TaxID: cp.TaxID},
		Description: w.Description, PostbackURL: w.PostbackURL,
		PixID: w.PublicPixID(), EndToEndID: w.EndToEndID, FailureReason: w.FailureReason,
		CreatedAt: timestamp(w.CreatedAt), UpdatedAt: timestamp(w.UpdatedAt), FinishedAt: timePtr(w.FinishedAt),
		Provider: w.Provider, DueAt: timePtr(w.DueAt), BatchID: uuidString(w.BatchID),
	}
}

// uuidString is id as text, nil for none.
func uuidString(id *uuid.UUID) *string {
	if id == nil {
		return nil
	}
	s := id.String()
	return &s
}

func nullIfEmpty(r json.RawMessage) json.RawMessage {
	if len(r) == 0 {
		return nil
	}
	return r
}
