package api

import (
	"github.com/gofiber/fiber/v2"

	"github.com/pixgate/pixgate/api/payments"
)

// Maker-checker: a withdrawal or batch the integrator's approval rule
// holds waits AWAITING_APPROVAL, its money reserved and nothing sent,
// until a key with withdrawals:approve other than the one that created it
// approves it (sent) or rejects it (FAILED, its money back), or its
// approval expires. The key that created it gets 403 self_approval; a
// withdrawal or batch no longer waiting, 409 not_awaiting_approval.

// approveWithdrawal is POST /api/v1/withdrawals/{id}/approve.
func (s *Server) approveWithdrawal(c *fiber.Ctx) error {
	d, err := decision(c, "withdrawal", false)
	if err != nil {
		return err
	}
	w, err := s.payments.ApproveWithdrawal(c.UserContext(), integratorOf(c), d)
	if err != nil {
		return err
	}
	return c.JSON(viewWithdrawal(w))
}

// rejectWithdrawal is POST /api/v1/withdrawals/{id}/reject, with an
// optional body {"reason": "..."}.
func (s *Server) rejectWithdrawal(c *fiber.Ctx) error {
	d, err := decision(c, "withdrawal", true)
	if err != nil {
		return err
	}
	w, err := s.payments.RejectWithdrawal(c.UserContext(), integratorOf(c), d)
	if err != nil {
		return err
	}
	return c.JSON(viewWithdrawal(w))
}

// approveWithdrawalBatch is POST /api/v1/withdrawals/batches/{id}/approve.
func (s *Server) approveWithdrawalBatch(c *fiber.Ctx) error {
	d, err := decision(c, "batch", false)
	if err != nil {
		return err
	}
	b, err := s.payments.ApproveBatch(c.UserContext(), integratorOf(c), d)
	if err != nil {
		return err
	}
	return c.JSON(viewBatch(b))
}

// rejectWithdrawalBatch is POST /api/v1/withdrawals/batches/{id}/reject.
func (s *Server) rejectWithdrawalBatch(c *fiber.Ctx) error {
	d, err := decision(c, "batch", true)
	if err != nil {
		return err
	}
	b, err := s.payments.RejectBatch(c.UserContext(), integratorOf(c), d)
	if err != nil {
		return err
	}
	return c.JSON(viewBatch(b))
}

// decision reads who decides what: the path's record, the request's key
// and, for a rejection, the optional reason of its JSON body (an empty
// body is no reason).
func decision(c *fiber.Ctx, param string, reject bool) (payments.Decision, error) {
	ref, err := pathRef(c, param)
	if err != nil {
		return payments.Decision{}, err
	}
	key, _ := apiKeyOf(c)
	d := payments.Decision{Ref: ref, KeyID: key.ID}
	if !reject || len(c.Body()) == 0 {
		return d, nil
	}
	if err := requireJSONBody(c); err != nil {
		return d, err
	}
	body, err := decodeObject(c)
	if err != nil {
		return d, err
	}
	if r := body.optionalText("reason", maxShortTextLen); r != nil {
		d.Reason = *r
	}
	return d, body.errs.err()
}
