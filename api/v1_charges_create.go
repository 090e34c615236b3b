package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
)

// createCharge is POST /api/v1/charges. The charge row is written first
// (PENDING, not issued), then the provider is asked for the QR code inside
// the request, because the payer is waiting at a checkout. A failed
// provider call leaves the charge FAILED; the integrator retries with the
// same external_id, which reopens it and asks the provider again with the
// same charge id, which the provider deduplicates.
func (s *Server) createCharge(c *fiber.Ctx) error {
	ctx, integratorID := c.UserContext(), integratorIDOf(c)
	body, err := decodeObject(c)
	if err != nil {
		return err
	}
	in, err := s.parseCharge(body, integratorOf(c).CashIn)
	if err != nil {
		return err
	}
	if s.deps.Provider == nil { // refuse before writing anything
		return &providerclient.Error{Op: "create charge", Kind: providerclient.ErrUnavailable, Message: "no provider configured"}
	}
	id, err := uuid.NewV7()
	if err != nil {
		return fmt.Errorf("charge id: %w", err)
	}
	ch, created, err := s.deps.DB.CreateCharge(ctx, storage.NewCharge{
		ID: id, IntegratorID: integratorID, ExternalID: in.ExternalID,
		Amount: in.Amount, Fee: in.Fee, Payer: in.Payer,
		PayerQuestion: in.PayerQuestion, PostbackURL: in.PostbackURL, Split: in.Split,
		RequestHash: in.hash(),
	})
	if err != nil {
		return err
	}
	if ch, err = s.ensureIssued(ctx, ch); err != nil {
		return err
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	return c.Status(status).JSON(viewCharge(ch))
}

// ensureIssued asks the provider for the QR code of a charge that has none
// yet: a new charge, a replay of one whose earlier attempt was cut short, or
// a FAILED one being retried. Issued charges are returned as they are.
func (s *Server) ensureIssued(ctx context.Context, ch storage.Charge) (storage.Charge, error) {
	if ch.Issued() || (ch.Status != storage.ChargePending && ch.Status != storage.ChargeFailed) {
		return ch, nil
	}
	// From here on the outcome must be recorded even if the client hangs up.
	ctx = context.WithoutCancel(ctx)
	if ch.Status == storage.ChargeFailed {
		reopened, err := s.deps.DB.ReopenCharge(ctx, ch.ID)
		switch {
		case errors.Is(err, storage.ErrStateChanged): // another request moved it first
			return s.deps.DB.Charge(ctx, ch.IntegratorID, ch.ID.String())
		case err != nil:
			return ch, err
		}
		ch = reopened
	}
	pc, err := s.requestQRCode(ctx, ch)
	if err != nil {
		if _, ferr := s.deps.DB.FailCharge(ctx, ch.ID, failureReason(err)); ferr != nil && !errors.Is(ferr, storage.ErrStateChanged) {
			// The charge stays PENDING and unissued; a retry issues it.
			s.log.Error("recording a failed charge", "charge_id", ch.ID, "error", ferr)
		}
		return ch, fmt.Errorf("charge %s: %w", ch.ID, err)
	}
	issued, err := s.deps.DB.IssueCharge(ctx, ch.ID, storage.ChargeIssue{PixID: pc.TransactionID, QRCode: pc.QRCode, ExpiresAt: pc.ExpiresAt})
	if errors.Is(err, storage.ErrStateChanged) { // a concurrent replay recorded the outcome
		return s.deps.DB.Charge(ctx, ch.IntegratorID, ch.ID.String())
	}
	return issued, err
}

// requestQRCode is the provider call, bounded by Config.ProviderTimeout.
// Our charge id is the provider-side external_id and the provider posts
// its notifications to PixGate's webhook, never to the integrator.
func (s *Server) requestQRCode(ctx context.Context, ch storage.Charge) (*providerclient.Charge, error) {
	ctx, cancel := context.WithTimeout(ctx, s.cfg.ProviderTimeout)
	defer cancel()
	req := providerclient.ChargeRequest{
		Amount: ch.Amount, ExternalID: ch.ID.String(), PostbackURL: s.cfg.ProviderWebhookURL,
		Payer: &providerclient.Payer{Name: ch.Payer.Name, Document: ch.Payer.Document},
	}
	if ch.Payer.Email != nil {
		req.Payer.Email = *ch.Payer.Email
	}
	if ch.PayerQuestion != nil {
		req.PayerQuestion = *ch.PayerQuestion
	}
	pc, err := s.deps.Provider.CreateCharge(ctx, req)
	if err == nil && (pc.TransactionID == "" || pc.QRCode == "") {
		err = &providerclient.Error{Op: "create charge", Kind: providerclient.ErrUnknownOutcome, StatusCode: http.StatusOK,
			Message: "answer without transactionId or qrcode"}
	}
	return pc, err
}

// failureReason is what a FAILED charge shows in failure_reason.
func failureReason(err error) string {
	var pe *providerclient.Error
	switch {
	case errors.Is(err, providerclient.ErrRejected):
		if errors.As(err, &pe) && pe.Message != "" {
			return "provider rejected the charge: " + pe.Message
		}
		return "provider rejected the charge"
	case errors.Is(err, providerclient.ErrBreakerOpen):
		return "provider unavailable (circuit breaker open)"
	case errors.Is(err, providerclient.ErrUnavailable):
		return "provider unavailable"
	case errors.Is(err, providerclient.ErrUnknownOutcome):
		return "provider did not answer in time"
	}
	return "provider call failed"
}
