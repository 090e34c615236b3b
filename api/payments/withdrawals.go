package payments

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/fleet"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/ledger"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/tasks"
)

// WithdrawalRequest is a validated withdrawal request, the key and tax id
// in the canonical form PixGate stores and sends.
type WithdrawalRequest struct {
	ExternalID  *string
	Amount      money.Money
	CreditParty storage.CreditParty
	Description *string
	PostbackURL *string
	// DueAt is when the withdrawal is due, given by the caller; nil: the
	// integrator's payout deadline from its creation, if it has one.
	DueAt *time.Time
	// CreatedBy is the id of the API key that asks (not part of the
	// request's fingerprint: a replay by another key is a replay).
	CreatedBy int64
}

// fingerprint is ChargeRequest.fingerprint's rule for withdrawals.
func (r WithdrawalRequest) fingerprint() []byte {
	return fingerprint(struct {
		Kind        string              `json:"k"`
		ExternalID  *string             `json:"e"`
		Amount      money.Money         `json:"a"`
		CreditParty storage.CreditParty `json:"c"`
		Description *string             `json:"d"`
		PostbackURL *string             `json:"u"`
		DueAt       *time.Time          `json:"t,omitempty"` // omitted without one: earlier requests' fingerprints stay as they were
	}{"withdrawal/v1", r.ExternalID, r.Amount, r.CreditParty, r.Description, r.PostbackURL, r.DueAt})
}

// CreateWithdrawal sends a PIX from the integrator's wallet. One SQL
// transaction reserves amount + cash-out fee, inserts the withdrawal
// PROCESSING and the outbox row that asks a worker to send it; when this
// returns, the money is reserved and the send will happen. The provider is
// never called here, but for a same-holder integrator's key lookup
// (checkNew). created is false for a replay.
func (s *Service) CreateWithdrawal(ctx context.Context, in storage.Integrator, r WithdrawalRequest) (storage.Transfer, bool, error) {
	provider, err := s.withdrawalProvider(ctx, in.ID, r.Amount)
	if errors.Is(err, ErrOverProviderLimit) && r.ExternalID != nil {
		// A replay is answered as the first time, whatever the limits in
		// force now (the night's, a limit set since): the create below
		// finds the withdrawal, or the conflict, and writes nothing.
		if prior, perr := s.store.Transfer(ctx, storage.KindWithdrawal, in.ID, *r.ExternalID); perr == nil {
			provider, err = prior.Provider, nil
		}
	}
	if err != nil {
		return storage.Transfer{}, false, err
	}
	if err := s.checkNew(ctx, in, r); err != nil {
		return storage.Transfer{}, false, err
	}
	id, err := uuid.NewV7()
	if err != nil {
		return storage.Transfer{}, false, fmt.Errorf("withdrawal id: %w", err)
	}
	return withOutboxSpan(ctx, tasks.WithdrawalSendMessage(id, 0), func(m storage.OutboxMessage, tp string) (storage.Transfer, bool, error) {
		return s.store.CreateWithdrawal(ctx, storage.NewWithdrawal{
			ID: id, IntegratorID: in.ID, ExternalID: r.ExternalID,
			Amount: r.Amount, Fee: in.CashOut.Compute(r.Amount),
			CreditParty: r.CreditParty, Description: r.Description, PostbackURL: r.PostbackURL,
			RequestHash: r.fingerprint(), Provider: provider, TraceParent: tp, DueAt: dueAt(r.DueAt, in.PayoutDeadline, s.cfg.Now()),
			Outbox: []storage.OutboxMessage{m}, CreatedByKey: r.CreatedBy,
		}.Held(s.approvalExpiry(in, r.Amount)))
	})
}

// dueAt is when a withdrawal created at now is due: the request's due_at,
// else now plus the integrator's payout deadline; nil with neither.
func dueAt(given *time.Time, deadline time.Duration, now time.Time) *time.Time {
	if given != nil {
		return given
	}
	if deadline <= 0 {
		return nil
	}
	at := now.Add(deadline)
	return &at
}

// withdrawalProvider is the provider a new withdrawal of amount is first
// sent to: the first of the integrator's withdrawal route in service (the
// fleet's choice: not eliminated, breaker not open) among those whose
// per-PIX limit lets the amount through, else the first of those. A route
// whose providers are all disabled takes no withdrawal, and one whose
// every provider's limit the amount passes refuses it (ErrOverProviderLimit,
// 422): nothing is written. A replay keeps the provider its withdrawal
// recorded.
func (s *Service) withdrawalProvider(ctx context.Context, integratorID int64, amount money.Money) (string, error) {
	route, err := s.store.RouteFor(ctx, integratorID)
	if err != nil {
		return "", err
	}
	if len(route.Withdrawals) == 0 {
		return "", &providerclient.Error{Op: providerclient.OpPayout, Kind: providerclient.ErrUnavailable, Message: "no provider on the integrator's route"}
	}
	now := s.cfg.Now()
	allowing := route.WithdrawalsAllowing(amount, now)
	if len(allowing) == 0 {
		return "", &RuleError{Rule: ErrOverProviderLimit, Field: "amount",
			Detail: fmt.Sprintf("is above the per-PIX limit of R$ %s that applies now to every provider of this account (Res. BCB 494-498/2025)",
				route.HighestLimit(now))}
	}
	if c, ok := s.provider.(chooser); ok {
		r := make(fleet.Route, len(allowing))
		for i, name := range allowing {
			r[i] = fleet.Choice{Provider: name}
		}
		if name := c.Choose(ctx, r, providerclient.LaneSend); name != "" {
			return name, nil
		}
	}
	return allowing[0], nil
}

// checkNew checks the recipient of a same-holder integrator's withdrawal
// that is not a replay (a replay is answered as it was the first time,
// whatever the key's holder has become, and looks nothing up). Other
// integrators' withdrawals are not looked up: the provider refuses a key
// the DICT does not have, or marks for fraud, when it sends, and the
// withdrawal fails with nothing spent; a lookup on every create would put
// a provider round trip on the create path.
//
// What would be refused anyway is refused before the lookup, so that no
// lookup is made, or budget spent, for a withdrawal that could never be
// made: an invalid request (refused by the surface's parser before this),
// a route that takes no withdrawal (CreateWithdrawal), and a balance that
// does not cover it.
func (s *Service) checkNew(ctx context.Context, in storage.Integrator, r WithdrawalRequest) error {
	if !in.SameHolder {
		return nil
	}
	if r.ExternalID != nil {
		_, err := s.store.Transfer(ctx, storage.KindWithdrawal, in.ID, *r.ExternalID)
		if err == nil {
			return nil
		}
		if !errors.Is(err, storage.ErrNotFound) {
			return err
		}
	}
	if err := s.checkFunds(ctx, in, r); err != nil {
		return err
	}
	return s.checkRecipient(ctx, in.ID, r.CreditParty)
}

// checkFunds refuses a withdrawal that the available balance does not
// cover, as its reservation would, without reserving anything: the
// reservation checks again, under the wallet's lock, when it is made.
// Checked before the recipient is looked up, it keeps an account with an
// empty wallet from asking the same-holder check who a key's holder is.
func (s *Service) checkFunds(ctx context.Context, in storage.Integrator, r WithdrawalRequest) error {
	w, err := s.store.Wallet(ctx, in.ID)
	if err != nil {
		return err
	}
	if need := r.Amount + in.CashOut.Compute(r.Amount); w.Available < need {
		return &ledger.InsufficientFundsError{Account: ledger.Of(in.ID, ledger.Available), Balance: w.Available, Requested: need}
	}
	return nil
}

// fingerprint hashes the canonical JSON of a request.
func fingerprint(canonical any) []byte {
	b, err := json.Marshal(canonical)
	if err != nil {
		panic(fmt.Sprintf("payments: fingerprint does not marshal: %v", err)) // plain structs: cannot happen
	}
	sum := sha256.Sum256(b)
	return sum[:]
}
