package payments

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/money/due"
	"github.com/pixgate/pixgate/storage/recurrence"
	"github.com/pixgate/pixgate/tasks"
)

// RecurrenceRequest is a validated Pix Automático recurrence request
// (docs/recurrences.md), values normalized.
type RecurrenceRequest struct {
	// ExternalID is the integrator's reference and idempotency key.
	ExternalID   string
	Journey      recurrence.Journey
	Payer        storage.Payer
	PayerAccount *storage.RecurrencePayerAccount
	Contract     string
	Description  *string
	Calendar     recurrence.Calendar
	Amount       recurrence.Amount
	RetryPolicy  recurrence.RetryPolicy
	// ConsentExpiresAt, when set, is sooner than the 30 days a consent
	// waits at most.
	ConsentExpiresAt *time.Time
	PostbackURL      *string
	// FirstPayment is the first payment's amount, for the journeys that
	// have one (recurrence.Journey.PaysFirstCycle).
	FirstPayment money.Money
}

func (r RecurrenceRequest) fingerprint() []byte {
	return fingerprint(struct {
		Kind string            `json:"k"`
		R    RecurrenceRequest `json:"r"`
	}{"recurrence/v1", r})
}

// RecurrenceStore is the part of storage recurrences use; *storage.DB is
// one. A Store that is none answers every recurrence ErrNotFound.
type RecurrenceStore interface {
	CreateRecurrence(ctx context.Context, nr storage.NewRecurrence) (storage.Recurrence, bool, error)
	IssueRecurrence(ctx context.Context, id uuid.UUID, is storage.RecurrenceIssue) (storage.Recurrence, error)
	FailRecurrence(ctx context.Context, id uuid.UUID, reason string) (storage.Recurrence, error)
	ReopenRecurrence(ctx context.Context, id uuid.UUID) (storage.Recurrence, error)
	Recurrence(ctx context.Context, integratorID int64, ref string) (storage.Recurrence, error)
	ListRecurrences(ctx context.Context, p storage.ListParams) ([]storage.Recurrence, bool, error)
	CyclesOf(ctx context.Context, recurrenceID uuid.UUID) ([]storage.Cycle, error)
	SetCycleAmount(ctx context.Context, r storage.Recurrence, n int, amount money.Money, today due.Date) (storage.Cycle, error)
	CancelScheduledCycle(ctx context.Context, id uuid.UUID) (storage.Cycle, error)
}

// The rules of recurrences.
var (
	// ErrJourneyUnsupported: no provider of the integrator's route offers
	// the journey.
	ErrJourneyUnsupported = errors.New("no provider offers the journey")
	// ErrConsentDeadline: a consent asked to wait past its 30 days, or not
	// at all.
	ErrConsentDeadline = errors.New("the consent's deadline is out of bounds")
)

// CreateRecurrence registers a recurrence at the first provider of the
// integrator's charge route that offers its journey, while the integrator
// waits (it needs the QR Code to show the payer). As a charge: written
// first (CREATED, not registered), then asked of the provider under
// PixGate's id; a failed call leaves it FAILED, and the same request again
// reopens it and asks again, which the id makes the same recurrence.
func (s *Service) CreateRecurrence(ctx context.Context, in storage.Integrator, r RecurrenceRequest) (rec storage.Recurrence, created bool, err error) {
	if s.recurrences == nil {
		return rec, false, storage.ErrNotFound
	}
	if s.provider == nil {
		return rec, false, &providerclient.Error{Op: providerclient.OpCreateRecurrence, Kind: providerclient.ErrUnavailable, Message: "no provider configured"}
	}
	if fee := in.CashIn.Compute(r.Amount.Fixed); !r.Amount.Variable() && r.Amount.Fixed <= fee {
		return rec, false, &RuleError{Rule: ErrAmountNotAboveFee, Field: "amount.value",
			Detail: fmt.Sprintf("must exceed the cash-in fee of R$ %s: each cycle is a charge", fee)}
	}
	route, err := s.store.RouteFor(ctx, in.ID)
	if err != nil {
		return rec, false, err
	}
	provider, ok := s.recurrenceProvider(route, r.Journey)
	if !ok {
		return rec, false, &RuleError{Rule: ErrJourneyUnsupported, Field: "journey",
			Detail: fmt.Sprintf("%s is not offered by any provider of this account's route", r.Journey)}
	}
	now := s.cfg.Now()
	var asked time.Time
	if r.ConsentExpiresAt != nil {
		asked = *r.ConsentExpiresAt
	}
	deadline, err := recurrence.ConsentDeadline(now, asked)
	var fe *recurrence.FieldError
	if errors.As(err, &fe) {
		return rec, false, &RuleError{Rule: ErrConsentDeadline, Field: fe.Field, Detail: fe.Message}
	}
	first, err := firstPayment(in, r)
	if err != nil {
		return rec, false, err
	}
	id, err := uuid.NewV7()
	if err != nil {
		return rec, false, fmt.Errorf("recurrence id: %w", err)
	}
	rec, created, err = s.recurrences.CreateRecurrence(ctx, storage.NewRecurrence{
		ID: id, IntegratorID: in.ID, ExternalID: r.ExternalID, RequestHash: r.fingerprint(), Provider: provider,
		Journey: r.Journey, Calendar: r.Calendar, Amount: r.Amount, RetryPolicy: r.RetryPolicy,
		Payer: r.Payer, PayerAccount: r.PayerAccount, Contract: r.Contract, Description: r.Description,
		ConsentExpiresAt: deadline, PostbackURL: r.PostbackURL, FirstPayment: first,
	})
	if err != nil {
		return rec, false, err
	}
	rec, err = s.ensureRegistered(context.WithoutCancel(ctx), rec)
	return rec, created, err
}

// recurrenceProvider is the first provider of the route's charge providers
// that offers journey.
func (s *Service) recurrenceProvider(route storage.Route, journey recurrence.Journey) (string, bool) {
	for _, st := range route.Charges {
		if c, ok := s.connector(st.Provider); ok {
			caps := c.Capabilities()
			if caps.Recurrences && slices.Contains(caps.Journeys, journey) {
				return st.Provider, true
			}
		}
	}
	return "", false
}

// connector is the provider of that name.
func (s *Service) connector(name string) (providerclient.Connector, bool) {
	if ps, ok := s.provider.(Providers); ok {
		return ps.Provider(name)
	}
	c, ok := s.provider.(providerclient.Connector)
	return c, ok && name == storage.DefaultProvider
}

// ensureRegistered asks the provider to register a recurrence it has not
// yet (new, a replay of one cut short, or a FAILED one retried).
func (s *Service) ensureRegistered(ctx context.Context, rec storage.Recurrence) (storage.Recurrence, error) {
	if rec.Registered() || (rec.Status != recurrence.RecurrenceCreated && rec.Status != recurrence.RecurrenceFailed) {
		return rec, nil
	}
	if rec.Status == recurrence.RecurrenceFailed {
		reopened, err := s.recurrences.ReopenRecurrence(ctx, rec.ID)
		if errors.Is(err, storage.ErrStateChanged) {
			return s.recurrences.Recurrence(ctx, rec.IntegratorID, rec.ID.String())
		}
		if err != nil {
			return rec, err
		}
		rec = reopened
	}
	c, ok := s.connector(rec.Provider)
	if !ok {
		return rec, &providerclient.Error{Op: providerclient.OpCreateRecurrence, Kind: providerclient.ErrUnavailable, Message: "provider " + rec.Provider + " is not configured"}
	}
	cctx, cancel := context.WithTimeout(ctx, s.cfg.ProviderTimeout)
	defer cancel()
	got, err := c.CreateRecurrence(cctx, recurrenceRequest(rec, s.cfg.ProviderWebhookURL))
	if err == nil && (got.ProviderID == "" || (rec.FirstCharge != nil && got.FirstPaymentID == "")) {
		err = &providerclient.Error{Op: providerclient.OpCreateRecurrence, Kind: providerclient.ErrUnknownOutcome,
			Message: "answer without the recurrence's id or its first payment's"}
	}
	if err != nil {
		if _, ferr := s.recurrences.FailRecurrence(ctx, rec.ID, failureReason(err)); ferr != nil && !errors.Is(ferr, storage.ErrStateChanged) {
			s.log.Error("recording a failed recurrence", "recurrence_id", rec.ID, "error", ferr)
		}
		return rec, fmt.Errorf("recurrence %s: %w", rec.ID, err)
	}
	issued, err := s.recurrences.IssueRecurrence(ctx, rec.ID, storage.RecurrenceIssue{ProviderID: got.ProviderID, QRCode: got.QRCode,
		FirstPaymentID: got.FirstPaymentID})
	if errors.Is(err, storage.ErrStateChanged) {
		return s.recurrences.Recurrence(ctx, rec.IntegratorID, rec.ID.String())
	}
	return issued, err
}

// recurrenceRequest is what the provider is asked for rec.
func recurrenceRequest(rec storage.Recurrence, notify string) providerclient.RecurrenceRequest {
	req := providerclient.RecurrenceRequest{
		ID: rec.ID.String(), Journey: rec.Journey, Contract: rec.Contract, Calendar: rec.Calendar, Amount: rec.Amount,
		RetryPolicy: rec.RetryPolicy, ConsentExpiresAt: rec.ConsentExpiresAt, NotifyURL: notify,
		Payer: providerclient.Party{Name: rec.Payer.Name, Document: rec.Payer.Document},
	}
	if rec.Payer.Email != nil {
		req.Payer.Email = *rec.Payer.Email
	}
	if rec.Description != nil {
		req.Description = *rec.Description
	}
	if a := rec.PayerAccount; a != nil {
		req.PayerAccount = &providerclient.PayerAccount{ISPB: a.ISPB, Branch: a.Branch, Number: a.Account}
	}
	if f := rec.FirstCharge; f != nil {
		req.FirstPayment, req.FirstPaymentID = f.Amount, f.ID.String()
	}
	return req
}

// Recurrence returns one of the integrator's recurrences by id or
// external_id.
func (s *Service) Recurrence(ctx context.Context, integratorID int64, ref string) (storage.Recurrence, error) {
	if s.recurrences == nil {
		return storage.Recurrence{}, storage.ErrNotFound
	}
	return s.recurrences.Recurrence(ctx, integratorID, ref)
}

// Recurrences is one page of the integrator's recurrences, newest first.
func (s *Service) Recurrences(ctx context.Context, p storage.ListParams) ([]storage.Recurrence, bool, error) {
	if s.recurrences == nil {
		return nil, false, nil
	}
	return s.recurrences.ListRecurrences(ctx, p)
}

// ErrRecurrenceEnded: a recurrence already ended (or never registered)
// cannot be cancelled.
var ErrRecurrenceEnded = errors.New("the recurrence cannot be cancelled in its status")

// CancelRecurrence asks the provider to cancel one of the integrator's
// recurrences (CREATED or APPROVED). PixGate's record follows the
// provider's, as for every change: the cancellation is recorded as a
// notification of it, which a worker confirms with the provider, applies
// and tells the integrator by postback. The recurrence is returned as it
// stands.
func (s *Service) CancelRecurrence(ctx context.Context, integratorID int64, ref string) (storage.Recurrence, error) {
	rec, err := s.Recurrence(ctx, integratorID, ref)
	if err != nil {
		return rec, err
	}
	if !rec.Registered() || (rec.Status != recurrence.RecurrenceCreated && rec.Status != recurrence.RecurrenceApproved) {
		return rec, &RuleError{Rule: ErrRecurrenceEnded, Field: "status", Detail: fmt.Sprintf("is %s: only a CREATED or APPROVED recurrence can be cancelled", rec.Status)}
	}
	c, ok := s.connector(rec.Provider)
	if !ok {
		return rec, &providerclient.Error{Op: providerclient.OpCancelRecurrence, Kind: providerclient.ErrUnavailable, Message: "provider " + rec.Provider + " is not configured"}
	}
	cctx, cancel := context.WithTimeout(ctx, s.cfg.ProviderTimeout)
	defer cancel()
	if err := c.CancelRecurrence(cctx, providerclient.RecurrenceRef{ID: rec.ID.String(), ProviderID: *rec.ProviderID}); err != nil {
		return rec, err
	}
	kind := string(providerclient.KindRecurrence)
	_, _, err = s.store.RecordProviderEvent(ctx, storage.NewProviderEvent{
		Provider: rec.Provider, TransactionType: kind, TransactionID: *rec.ProviderID, ExternalID: rec.ID.String(),
		Status: string(recurrence.RecurrenceCancelled), Payload: []byte(`{"cancelled_by":"INTEGRATOR"}`),
	}, func(id int64) storage.OutboxMessage {
		return storage.OutboxMessage(tasks.NewProviderEventMessage(tasks.ProviderEvent{EventID: id, TransactionType: kind, TransactionID: *rec.ProviderID}))
	})
	return rec, err
}

// firstPayment is the first payment's charge of a journey that has one:
// its id, amount and the cash-in fee in force; none for the others.
func firstPayment(in storage.Integrator, r RecurrenceRequest) (storage.NewFirstPayment, error) {
	if !r.Journey.PaysFirstCycle() {
		return storage.NewFirstPayment{}, nil
	}
	fee := in.CashIn.Compute(r.FirstPayment)
	if r.FirstPayment <= fee {
		return storage.NewFirstPayment{}, &RuleError{Rule: ErrAmountNotAboveFee, Field: "first_payment.amount",
			Detail: fmt.Sprintf("must exceed the cash-in fee of R$ %s", fee)}
	}
	id, err := uuid.NewV7()
	if err != nil {
		return storage.NewFirstPayment{}, fmt.Errorf("first payment id: %w", err)
	}
	return storage.NewFirstPayment{ChargeID: id, Amount: r.FirstPayment, Fee: fee}, nil
}
