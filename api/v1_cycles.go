package api

import (
	"net/http"
	"strconv"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/money/due"
)

// listCycles is GET /api/v1/recurrences/{recurrence}/cycles: the cycles
// PixGate holds of the recurrence, oldest first, each with its attempts.
func (s *Server) listCycles(c *fiber.Ctx) error {
	r, cycles, err := s.payments.Cycles(c.UserContext(), integratorOf(c).ID, c.Params("recurrence"))
	if err != nil {
		return err
	}
	items := make([]cycleView, 0, len(cycles))
	for _, cy := range cycles {
		items = append(items, viewCycle(cy))
	}
	return c.JSON(fiber.Map{"recurrence_id": r.ID.String(), "items": items})
}

// getCycle is GET /api/v1/recurrences/{recurrence}/cycles/{n}.
func (s *Server) getCycle(c *fiber.Ctx) error {
	n, err := strconv.Atoi(c.Params("n"))
	if err != nil || n < 0 {
		return storage.ErrNotFound
	}
	_, cycles, err := s.payments.Cycles(c.UserContext(), integratorOf(c).ID, c.Params("recurrence"))
	if err != nil {
		return err
	}
	for _, cy := range cycles {
		if cy.N == n {
			return c.JSON(viewCycle(cy))
		}
	}
	return storage.ErrNotFound
}

// setCycleAmount is PUT /api/v1/recurrences/{recurrence}/cycles/{n}
// {"amount"}: a variable recurrence's cycle amount, until its window
// closes; the cycle is scheduled with it (200, the cycle).
func (s *Server) setCycleAmount(c *fiber.Ctx) error {
	n, err := strconv.Atoi(c.Params("n"))
	if err != nil || n < 0 {
		return storage.ErrNotFound
	}
	body, err := decodeObject(c)
	if err != nil {
		return err
	}
	amount, _ := body.amount("amount", maxRecurrenceAmount)
	if err := body.errs.err(); err != nil {
		return err
	}
	cy, err := s.payments.SetCycleAmount(c.UserContext(), integratorOf(c), c.Params("recurrence"), n, amount)
	if err != nil {
		return err
	}
	return c.JSON(viewCycle(cy))
}

// cancelCycle is POST /api/v1/recurrences/{recurrence}/cycles/{n}/cancel:
// 200 with the cycle cancelled here (not yet sent), 202 with the cycle as
// it stands when its provider cancels it (the CANCELLED postback tells
// when PixGate recorded it).
func (s *Server) cancelCycle(c *fiber.Ctx) error {
	n, err := strconv.Atoi(c.Params("n"))
	if err != nil || n < 0 {
		return storage.ErrNotFound
	}
	cy, accepted, err := s.payments.CancelCycle(c.UserContext(), integratorOf(c).ID, c.Params("recurrence"), n)
	if err != nil {
		return err
	}
	status := http.StatusOK
	if accepted {
		status = http.StatusAccepted
	}
	return c.Status(status).JSON(viewCycle(cy))
}

// cycleView is the v1 cycle record (docs/recurrences.md).
type cycleView struct {
	ID            string        `json:"id"`
	RecurrenceID  string        `json:"recurrence_id"`
	N             int           `json:"n"`
	DueDate       due.Date      `json:"due_date"`
	Amount        money.Money   `json:"amount"`
	Fee           *money.Money  `json:"fee"`
	NetAmount     *money.Money  `json:"net_amount"`
	Status        string        `json:"status"`
	ChargeID      *uuid.UUID    `json:"charge_id"`
	ProviderID    *string       `json:"provider_id"`
	SendOn        due.Date      `json:"send_on"`
	Retries       int           `json:"retries"`
	RejectionCode *string       `json:"rejection_code"`
	CancelledBy   *string       `json:"cancelled_by"`
	FailureReason *string       `json:"failure_reason"`
	EndToEndID    *string       `json:"end_to_end_id"`
	Attempts      []attemptView `json:"attempts"`
	CreatedAt     timestamp     `json:"created_at"`
	UpdatedAt     timestamp     `json:"updated_at"`
	PaidAt        *timestamp    `json:"paid_at"`
}

type attemptView struct {
	Kind          string    `json:"kind"`
	SettleOn      due.Date  `json:"settle_on"`
	Status        string    `json:"status"`
	RejectionCode *string   `json:"rejection_code"`
	EndToEndID    *string   `json:"end_to_end_id"`
	UpdatedAt     timestamp `json:"updated_at"`
}

func viewCycle(c storage.Cycle) cycleView {
	v := cycleView{ID: c.ID.String(), RecurrenceID: c.RecurrenceID.String(), N: c.N, DueDate: c.DueDate, Amount: c.Amount,
		Status: string(c.Status), ChargeID: c.ChargeID, ProviderID: c.ProviderID, SendOn: c.SendOn, Retries: c.Retries,
		RejectionCode: c.RejectionCode, CancelledBy: c.CancelledBy, FailureReason: c.FailureReason, EndToEndID: c.EndToEndID,
		Attempts: make([]attemptView, 0, len(c.Attempts)), CreatedAt: timestamp(c.CreatedAt), UpdatedAt: timestamp(c.UpdatedAt),
		PaidAt: timePtr(c.PaidAt)}
	if c.ChargeID != nil { // the fee is its charge's, once sent
		fee, net := c.Fee, c.Amount-c.Fee
		v.Fee, v.NetAmount = &fee, &net
	}
	for _, a := range c.Attempts {
		v.Attempts = append(v.Attempts, attemptView{Kind: string(a.Kind), SettleOn: a.SettleOn, Status: string(a.Status),
			RejectionCode: a.RejectionCode, EndToEndID: a.EndToEndID, UpdatedAt: timestamp(a.UpdatedAt)})
	}
	return v
}
