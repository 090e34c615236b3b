package api

import (
	"net/http"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

// infractionStatuses are the values of the status filter, OPEN first.
var infractionStatuses = statusNames(storage.InfractionStatuses)

// maxDefenseLen bounds a defense's text: the DICT's bound on a report's
// and an analysis's details (2000).
const maxDefenseLen = 2000

// listInfractions is GET /api/v1/infractions: the account's MED
// infractions, newest first, paged as every v1 list, status filtering.
func (s *Server) listInfractions(c *fiber.Ctx) error {
	p, err := listParams(c, infractionStatuses)
	if err != nil {
		return err
	}
	items, more, err := s.payments.Infractions(c.UserContext(), p)
	if err != nil {
		return err
	}
	return c.JSON(page(items, more, p.Limit, viewInfraction, func(i storage.Infraction) uuid.UUID { return i.ID }))
}

// getInfraction is GET /api/v1/infractions/{id}.
func (s *Server) getInfraction(c *fiber.Ctx) error {
	id, err := infractionID(c)
	if err != nil {
		return err
	}
	inf, err := s.payments.Infraction(c.UserContext(), integratorIDOf(c), id)
	if err != nil {
		return err
	}
	return c.JSON(viewInfraction(inf))
}

// defendInfraction is POST /api/v1/infractions/{id}/defense with
// {"text": "..."}: the integrator's defense, kept and passed to the
// provider where it takes defenses. 200 with the infraction; 409 when it
// is closed or already has a defense.
func (s *Server) defendInfraction(c *fiber.Ctx) error {
	id, err := infractionID(c)
	if err != nil {
		return err
	}
	body, err := decodeObject(c)
	if err != nil {
		return err
	}
	text, _ := body.text("text", maxDefenseLen, true)
	if err := body.errs.err(); err != nil {
		return err
	}
	inf, err := s.payments.DefendInfraction(c.UserContext(), integratorIDOf(c), id, text)
	switch {
	case err == nil:
		return c.JSON(viewInfraction(inf))
	case err == storage.ErrInfractionClosed:
		return newError(http.StatusConflict, codeInfractionClosed, "The infraction is closed (%s): it takes no defense.", inf.Status)
	case err == storage.ErrDefenseExists:
		return newError(http.StatusConflict, codeDefenseExists, "The infraction already has a defense; it takes one.")
	}
	return err
}

// infractionID reads the path's infraction id: a UUID, else 404.
func infractionID(c *fiber.Ctx) (uuid.UUID, error) {
	id, err := uuid.Parse(c.Params("id"))
	if err != nil {
		return uuid.Nil, newError(http.StatusNotFound, codeNotFound, "No such record for this account.")
	}
	return id, nil
}

// infractionView is the v1 MED infraction. amount is what the payer
// disputes; blocked_amount what PixGate moved from the account's balances
// to blocked_balance when it arrived, and shortfall what they did not
// cover (never taken from a balance that does not hold it).
type infractionView struct {
	ID            string            `json:"id"`
	Status        string            `json:"status"`
	Charge        infractionCharge  `json:"charge"`
	ProviderID    string            `json:"provider_id"`
	Amount        money.Money       `json:"amount"`
	BlockedAmount money.Money       `json:"blocked_amount"`
	Shortfall     money.Money       `json:"shortfall"`
	Reason        *string           `json:"reason"`
	ReportedAt    *timestamp        `json:"reported_at"`
	DueAt         *timestamp        `json:"due_at"`
	Analysis      *string           `json:"analysis"`
	ClosedAt      *timestamp        `json:"closed_at"`
	Defense       *infractionDefend `json:"defense"`
	MedReturnID   *string           `json:"med_return_id"`
	CreatedAt     timestamp         `json:"created_at"`
	UpdatedAt     timestamp         `json:"updated_at"`
}

type infractionCharge struct {
	ID    string `json:"id"`
	PixID string `json:"pix_id"`
}

// infractionDefend is the integrator's defense; forwarded says whether the
// provider took it (one that takes no defenses leaves it with PixGate).
type infractionDefend struct {
	Text        string     `json:"text"`
	SubmittedAt *timestamp `json:"submitted_at"`
	Forwarded   bool       `json:"forwarded"`
}

func viewInfraction(i storage.Infraction) infractionView {
	v := infractionView{ID: i.ID.String(), Status: string(i.Status), Charge: infractionCharge{ID: i.ChargeID.String(), PixID: i.ChargePixID},
		ProviderID: i.ProviderID, Amount: i.Amount, BlockedAmount: i.Blocked, Shortfall: i.Shortfall(), Reason: i.Reason,
		ReportedAt: timePtr(i.ReportedAt), DueAt: timePtr(i.DueAt), Analysis: i.Analysis, ClosedAt: timePtr(i.ClosedAt),
		CreatedAt: timestamp(i.CreatedAt), UpdatedAt: timestamp(i.UpdatedAt)}
	if i.Defense != nil {
		v.Defense = &infractionDefend{Text: *i.Defense, SubmittedAt: timePtr(i.DefendedAt), Forwarded: i.DefenseForwarded}
	}
	if i.MedReturnID != nil {
		id := i.MedReturnID.String()
		v.MedReturnID = &id
	}
	return v
}
