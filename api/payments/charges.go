package payments

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/fleet"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/money/due"
	"github.com/pixgate/pixgate/tasks"
)

// ChargeRequest is a validated charge request, values normalized (the
// payer's document in digits).
type ChargeRequest struct {
	// ExternalID is the integrator's reference and idempotency key; empty
	// means one is generated ("chg-" and 20 random characters).
	ExternalID    string
	Amount        money.Money
	Payer         storage.Payer
	PayerQuestion *string
	PostbackURL   *string
	Split         json.RawMessage // canonical form
	// Expiration is how long the charge can be paid, in seconds; nil
	// leaves it to the provider.
	Expiration *int
	// Due makes it a due-date charge (validated, normalized): Amount is the
	// original amount, Expiration is not taken.
	Due *due.Terms
}

// fingerprint identifies the request for idempotency: a replay of the same
// request matches however it was spelled, any change of substance does not.
// It does not depend on the surface that carried the request, so the same
// external_id sent through v1 and then v2 is the same charge. The fee is
// left out: it is PixGate's, not the integrator's, and may change between
// tries. "charge/v1" versions this form, which stored fingerprints keep:
// a member added later is left out when absent (expiration), so requests
// without it keep the fingerprints they had.
func (r ChargeRequest) fingerprint() []byte {
	return fingerprint(struct {
		Kind          string          `json:"k"`
		ExternalID    string          `json:"e"`
		Amount        money.Money     `json:"a"`
		Payer         storage.Payer   `json:"p"`
		PayerQuestion *string         `json:"q"`
		PostbackURL   *string         `json:"u"`
		Split         json.RawMessage `json:"s"`
		Expiration    *int            `json:"x,omitempty"`
		Due           *due.Terms      `json:"d,omitempty"`
	}{"charge/v1", r.ExternalID, r.Amount, r.Payer, r.PayerQuestion, r.PostbackURL, r.Split, r.Expiration, r.Due})
}

// CreateCharge creates a dynamic-QR charge and has the provider issue it.
// The charge row is written first (PENDING, not issued), then the provider
// is asked for the QR code while the integrator waits, because the payer is
// at a checkout. A failed provider call leaves the charge FAILED and returns
// the provider's error; a retry with the same external_id reopens it and
// asks again with the same charge id, which the provider deduplicates.
// created is false for a replay of an existing charge.
func (s *Service) CreateCharge(ctx context.Context, in storage.Integrator, r ChargeRequest) (ch storage.Charge, created bool, err error) {
	fee := in.CashIn.Compute(r.Amount)
	if r.Amount <= fee {
		return ch, false, &RuleError{Rule: ErrAmountNotAboveFee, Field: "amount",
			Detail: fmt.Sprintf("must exceed the cash-in fee of R$ %s", fee)}
	}
	if err := s.checkSplit(ctx, in, r, fee); err != nil {
		return ch, false, err
	}
	var dueCharge *storage.ChargeDue
	if r.Due != nil {
		if dueCharge, err = s.checkDue(in, &r); err != nil {
			return ch, false, err
		}
	}
	if s.provider == nil { // refuse before writing anything
		return ch, false, &providerclient.Error{Op: "create charge", Kind: providerclient.ErrUnavailable, Message: "no provider configured"}
	}
	route, err := s.store.RouteFor(ctx, in.ID)
	if err != nil {
		return ch, false, err
	}
	if r.Due != nil {
		if route, err = s.dueRoute(route); err != nil {
			return ch, false, err
		}
	}
	if len(route.Charges) == 0 { // every provider of the route disabled
		return ch, false, &providerclient.Error{Op: "create charge", Kind: providerclient.ErrUnavailable, Message: "no provider on the integrator's route"}
	}
	if r.ExternalID == "" {
		r.ExternalID = newChargeExternalID()
	}
	id, err := uuid.NewV7()
	if err != nil {
		return ch, false, fmt.Errorf("charge id: %w", err)
	}
	ch, created, err = s.store.CreateCharge(ctx, storage.NewCharge{
		ID: id, IntegratorID: in.ID, ExternalID: r.ExternalID,
		Amount: r.Amount, Fee: fee, Payer: r.Payer,
		PayerQuestion: r.PayerQuestion, PostbackURL: r.PostbackURL, Split: r.Split, Expiration: r.Expiration,
		RequestHash: r.fingerprint(), Provider: route.Charges[0].Provider, Due: dueCharge,
		TraceParent: tasks.TraceParent(ctx), // its settlement joins the request's trace
	})
	if err != nil {
		return ch, false, err
	}
	ch, err = s.ensureIssued(ctx, ch, chargeRoute(route, ch, created))
	return ch, created, err
}

// ensureIssued asks the provider for the QR code of a charge that has none
// yet: a new charge, a replay of one whose earlier attempt was cut short, or
// a FAILED one being retried. Issued charges are returned as they are.
//
// The charge goes along the integrator's route, failing over to the next
// provider when one provably created nothing (fleet.Fleet.IssueCharge); the
// charge records the provider that issued it. A charge asked again (a
// replay, a retry of a FAILED one) goes first to the provider it records,
// which may hold it from the earlier attempt.
func (s *Service) ensureIssued(ctx context.Context, ch storage.Charge, route fleet.Route) (storage.Charge, error) {
	if ch.Issued() || (ch.Status != storage.ChargePending && ch.Status != storage.ChargeFailed) {
		return ch, nil
	}
	// From here on the outcome must be recorded even if the client hangs up.
	ctx = context.WithoutCancel(ctx)
	if ch.Status == storage.ChargeFailed {
		reopened, err := s.store.ReopenCharge(ctx, ch.ID)
		switch {
		case errors.Is(err, storage.ErrStateChanged): // another request moved it first
			return s.store.Charge(ctx, ch.IntegratorID, ch.ID.String())
		case err != nil:
			return ch, err
		}
		ch = reopened
	}
	pc, provider, err := s.requestQRCode(ctx, ch, route)
	if err != nil {
		// provider: the one that may hold the charge ("" when none does).
		if _, ferr := s.store.FailChargeAt(ctx, ch.ID, failureReason(err), provider); ferr != nil && !errors.Is(ferr, storage.ErrStateChanged) {
			// The charge stays PENDING and unissued; a retry issues it.
			s.log.Error("recording a failed charge", "charge_id", ch.ID, "error", ferr)
		}
		return ch, fmt.Errorf("charge %s: %w", ch.ID, err)
	}
	issued, err := s.store.IssueCharge(ctx, ch.ID, storage.ChargeIssue{PixID: pc.ProviderID, QRCode: pc.BRCode, ExpiresAt: pc.ExpiresAt,
		Expiration: int(pc.Expiration / time.Second), Provider: provider})
	if errors.Is(err, storage.ErrStateChanged) { // a concurrent replay recorded the outcome
		return s.store.Charge(ctx, ch.IntegratorID, ch.ID.String())
	}
	return issued, err
}

// requestQRCode is the provider call, bounded by Config.ProviderTimeout,
// and the name of the provider that issued the charge. Our charge id is the
// provider-side external_id and the provider posts its notifications to
// PixGate's webhook, never to the integrator.
func (s *Service) requestQRCode(ctx context.Context, ch storage.Charge, route fleet.Route) (*providerclient.Charge, string, error) {
	ctx, cancel := context.WithTimeout(ctx, s.cfg.ProviderTimeout)
	defer cancel()
	req := providerclient.ChargeRequest{
		ID: ch.ID.String(), Amount: ch.Amount, NotifyURL: s.cfg.ProviderWebhookURL,
		Payer: providerclient.Party{Name: ch.Payer.Name, Document: ch.Payer.Document},
	}
	if ch.Payer.Email != nil {
		req.Payer.Email = *ch.Payer.Email
	}
	if ch.PayerQuestion != nil {
		req.PayerQuestion = *ch.PayerQuestion
	}
	req.Expiration = DefaultChargeExpiration
	if ch.Expiration != nil {
		req.Expiration = time.Duration(*ch.Expiration) * time.Second
	}
	if ch.Due != nil {
		terms := ch.Due.Terms
		req.Due, req.Expiration = &terms, 0
	}
	var (
		pc       *providerclient.Charge
		provider = ch.Provider
		err      error
	)
	if r, ok := s.provider.(Router); ok {
		pc, provider, err = r.IssueCharge(ctx, route, req)
	} else {
		pc, err = s.provider.CreateCharge(ctx, req)
	}
	if err == nil && (pc.ProviderID == "" || pc.BRCode == "") {
		err = &providerclient.Error{Op: providerclient.OpCharge, Kind: providerclient.ErrUnknownOutcome, StatusCode: http.StatusOK,
			Message: "answer without the charge's id or BR Code"}
	}
	return pc, provider, err
}

// chargeRoute is the route a charge is asked of: the integrator's for a
// new charge; for one asked before (a replay, a retry of a FAILED one), the
// provider it records first, which may hold it from the earlier attempt,
// then the route's others in order.
func chargeRoute(r storage.Route, ch storage.Charge, fresh bool) fleet.Route {
	var out fleet.Route
	if !fresh {
		out = append(out, fleet.Choice{Provider: ch.Provider})
	}
	for _, st := range r.Charges {
		switch {
		case fresh:
			out = append(out, fleet.Choice{Provider: st.Provider, Weight: st.Weight})
		case st.Provider != ch.Provider: // in order: no weighted pick ahead of the recorded one
			out = append(out, fleet.Choice{Provider: st.Provider})
		}
	}
	return out
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

// newChargeExternalID is the external_id of a charge created without one:
// "chg-" and 20 random base32 characters (100 bits).
func newChargeExternalID() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return "chg-" + strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b))[:20]
}
