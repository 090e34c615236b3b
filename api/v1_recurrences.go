package api

import (
	"net/http"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"github.com/pixgate/pixgate/api/payments"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// createRecurrence is POST /api/v1/recurrences: 201 with the new
// recurrence (its QR Code for the QR journeys), 200 for a replay.
func (s *Server) createRecurrence(c *fiber.Ctx) error {
	return create(c, s.parseRecurrenceRequest, s.payments.CreateRecurrence,
		func(c *fiber.Ctx, _ payments.RecurrenceRequest, r storage.Recurrence, created bool) error {
			return c.Status(createdStatus(created)).JSON(viewRecurrence(r))
		})
}

// recurrenceStatuses are the values of the status filter.
var recurrenceStatuses = []string{string(recurrence.RecurrenceCreated), string(recurrence.RecurrenceApproved),
	string(recurrence.RecurrenceRejected), string(recurrence.RecurrenceExpired), string(recurrence.RecurrenceCancelled),
	string(recurrence.RecurrenceCompleted), string(recurrence.RecurrenceFailed)}

// listRecurrences is GET /api/v1/recurrences: newest first, per_page,
// status, cursor.
func (s *Server) listRecurrences(c *fiber.Ctx) error {
	p, err := listParams(c, recurrenceStatuses)
	if err != nil {
		return err
	}
	items, more, err := s.payments.Recurrences(c.UserContext(), p)
	if err != nil {
		return err
	}
	return c.JSON(page(items, more, p.Limit, viewRecurrence, func(r storage.Recurrence) uuid.UUID { return r.ID }))
}

// getRecurrence is GET /api/v1/recurrences/{recurrence}, by id or
// external_id.
func (s *Server) getRecurrence(c *fiber.Ctx) error {
	r, err := s.payments.Recurrence(c.UserContext(), integratorOf(c).ID, c.Params("recurrence"))
	if err != nil {
		return err
	}
	return c.JSON(viewRecurrence(r))
}

// cancelRecurrence is POST /api/v1/recurrences/{recurrence}/cancel: the
// provider cancels it at once; PixGate's record follows (202, as it
// stands), and the CANCELLED postback tells when it has.
func (s *Server) cancelRecurrence(c *fiber.Ctx) error {
	r, err := s.payments.CancelRecurrence(c.UserContext(), integratorOf(c).ID, c.Params("recurrence"))
	if err != nil {
		return err
	}
	return c.Status(http.StatusAccepted).JSON(viewRecurrence(r))
}

// recurrenceView is the v1 recurrence record.
type recurrenceView struct {
	ID               string              `json:"id"`
	ExternalID       string              `json:"external_id"`
	Status           string              `json:"status"`
	Journey          string              `json:"journey"`
	ProviderID       *string             `json:"provider_id"`
	QRCode           *string             `json:"qrcode"`
	FirstCharge      *firstChargeView    `json:"first_charge"`
	Payer            recurrencePayerView `json:"payer"`
	Contract         string              `json:"contract"`
	Description      *string             `json:"description"`
	Calendar         recurrence.Calendar `json:"calendar"`
	Amount           recurrenceAmount    `json:"amount"`
	PayerMax         *money.Money        `json:"payer_max"`
	RetryPolicy      string              `json:"retry_policy"`
	ConsentExpiresAt timestamp           `json:"consent_expires_at"`
	CancelledBy      *string             `json:"cancelled_by"`
	EndCode          *string             `json:"end_code"`
	EndReason        *string             `json:"end_reason"`
	FailureReason    *string             `json:"failure_reason"`
	PostbackURL      *string             `json:"postbackUrl"`
	Provider         string              `json:"provider"`
	CreatedAt        timestamp           `json:"created_at"`
	UpdatedAt        timestamp           `json:"updated_at"`
	ApprovedAt       *timestamp          `json:"approved_at"`
	EndedAt          *timestamp          `json:"ended_at"`
}

// firstChargeView is the first payment of the journeys that have one: an
// ordinary charge (GET /api/v1/charges/{id} reads it whole).
type firstChargeView struct {
	ID     uuid.UUID   `json:"id"`
	PixID  *string     `json:"pix_id"`
	Status string      `json:"status"`
	Amount money.Money `json:"amount"`
}

type recurrencePayerView struct {
	Name     string                          `json:"name"`
	Document string                          `json:"document"`
	Email    *string                         `json:"email"`
	Bank     *storage.RecurrencePayerAccount `json:"bank"`
}

// recurrenceAmount is the amount as the request gave it.
type recurrenceAmount struct {
	Type  string       `json:"type"`
	Value *money.Money `json:"value,omitempty"`
	Floor *money.Money `json:"floor,omitempty"`
}

func viewRecurrence(r storage.Recurrence) recurrenceView {
	a := recurrenceAmount{Type: "variable"}
	if !r.Amount.Variable() {
		a.Type, a.Value = "fixed", &r.Amount.Fixed
	} else if r.Amount.Floor > 0 {
		a.Floor = &r.Amount.Floor
	}
	var first *firstChargeView
	if f := r.FirstCharge; f != nil {
		first = &firstChargeView{ID: f.ID, PixID: f.PixID, Status: f.Status, Amount: f.Amount}
	}
	return recurrenceView{
		FirstCharge: first,
		ID:          r.ID.String(), ExternalID: r.ExternalID, Status: string(r.Status), Journey: string(r.Journey),
		ProviderID: r.ProviderID, QRCode: r.QRCode,
		Payer:    recurrencePayerView{Name: r.Payer.Name, Document: r.Payer.Document, Email: r.Payer.Email, Bank: r.PayerAccount},
		Contract: r.Contract, Description: r.Description, Calendar: r.Calendar, Amount: a, PayerMax: r.PayerMax,
		RetryPolicy: string(r.RetryPolicy), ConsentExpiresAt: timestamp(r.ConsentExpiresAt),
		CancelledBy: r.CancelledBy, EndCode: r.EndCode, EndReason: r.EndReason, FailureReason: r.FailureReason,
		PostbackURL: r.PostbackURL, Provider: r.Provider,
		CreatedAt: timestamp(r.CreatedAt), UpdatedAt: timestamp(r.UpdatedAt), ApprovedAt: timePtr(r.ApprovedAt), EndedAt: timePtr(r.EndedAt),
	}
}
