package worker

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/tasks"
)

// outbound is what the worker knows of each kind of transfer beyond
// storage's model, one row per kind: the provider's kind of transaction for
// it, the task that sends it, the word a rejection uses for it, the
// provider call that sends it (with its own id, so that sending it again
// never moves money twice; callProvider) and what the provider needs to
// read it back. A new kind is a new row.
var outbound = map[storage.TransferKind]struct {
	providerKind providerclient.Kind
	sendTask     func(id uuid.UUID, attempt int) tasks.Message
	noun         string
	callProvider func(ctx context.Context, w *Worker, t storage.Transfer) (pixID string, err error)
	ref          func(ctx context.Context, w *Worker, t storage.Transfer) (providerclient.Ref, error)
	// madeByProvider: the provider makes the transfer itself, and
	// callProvider only finds it there.
	madeByProvider bool
}{
	storage.KindWithdrawal: {providerclient.KindPayout, tasks.WithdrawalSendMessage, "payment", callProviderPayout, payoutRef, false},
	storage.KindRefund:     {providerclient.KindRefund, tasks.RefundSendMessage, "refund", callProviderRefund, refundRef, false},
	storage.KindMedReturn:  {providerclient.KindMedReturn, tasks.MedReturnSendMessage, "MED return", findProviderMedReturn, medReturnRef, true},
}

// transferKindOf is the kind of transfer of a provider's kind of
// transaction.
func transferKindOf(k providerclient.Kind) (storage.TransferKind, bool) {
	for kind, o := range outbound {
		if o.providerKind == k {
			return kind, true
		}
	}
	return "", false
}

// callProvider makes the provider call of t's kind (outbound), at the
// provider t records, the first time or again, and returns the provider's
// transaction id.
func (w *Worker) callProvider(ctx context.Context, t storage.Transfer) (string, error) {
	return outbound[t.Kind].callProvider(ctx, w, t)
}

// callProviderPayout sends a withdrawal as a PIX to its credit party,
// through the provider it records.
func callProviderPayout(ctx context.Context, w *Worker, t storage.Transfer) (string, error) {
	cp := t.CreditParty
	req := providerclient.PayoutRequest{ID: t.ID.String(), Amount: t.Amount, NotifyURL: w.cfg.ProviderWebhookURL,
		Recipient: providerclient.Recipient{Name: cp.Name, KeyType: cp.KeyType, Key: cp.Key, TaxID: cp.TaxID}}
	if t.Description != nil {
		req.Description = *t.Description
	}
	p, err := w.providerAt(t.Provider)
	if err != nil {
		return "", err
	}
	pay, err := p.SendPix(ctx, req)
	if err != nil {
		return "", err
	}
	return pay.ProviderID, nil
}

// callProviderRefund sends a refund of its charge, which the provider
// knows by the charge's pix_id and, in contracts that refund by it, the
// end-to-end id of the PIX that paid it.
func callProviderRefund(ctx context.Context, w *Worker, t storage.Transfer) (string, error) {
	charge, err := w.refundedCharge(ctx, t)
	if err != nil {
		return "", err
	}
	req := providerclient.RefundRequest{ID: t.ID.String(), Charge: charge, Amount: t.Amount, NotifyURL: w.cfg.ProviderWebhookURL}
	if t.Description != nil {
		req.Description = *t.Description
	}
	p, err := w.providerAt(t.Provider)
	if err != nil {
		return "", err
	}
	r, err := p.Refund(ctx, req)
	if err != nil {
		return "", err
	}
	return r.ProviderID, nil
}

// refundedCharge is what the provider needs to name a refund's charge.
func (w *Worker) refundedCharge(ctx context.Context, t storage.Transfer) (providerclient.Ref, error) {
	if t.ChargePixID == "" {
		return providerclient.Ref{}, fmt.Errorf("refund %s: charge %s has no provider transaction", t.ID, t.ChargeID)
	}
	ref := providerclient.Ref{Kind: providerclient.KindCharge, ID: t.ChargeID.String(), ProviderID: t.ChargePixID}
	p, err := w.providerAt(t.Provider)
	if err != nil {
		return providerclient.Ref{}, err
	}
	if needsEndToEnd(p) {
		c, err := w.charges.ChargeByID(ctx, t.ChargeID)
		if err != nil {
			return providerclient.Ref{}, err
		}
		if c.EndToEndID != nil {
			ref.EndToEndID = *c.EndToEndID
		}
	}
	return ref, nil
}

// findProviderMedReturn finds the MED return the provider made of an
// agreed infraction: PixGate never sends one (a refund asked for besides
// would pay the payer twice); it reads the infraction until the provider
// names its return. Until then, and whatever the provider answers, the
// MED return is only retried: it fails only when the provider reports the
// return itself failed.
func findProviderMedReturn(ctx context.Context, w *Worker, t storage.Transfer) (string, error) {
	p, err := w.providerAt(t.Provider)
	if err != nil {
		return "", err
	}
	d := disputesOf(p)
	if d == nil {
		return "", fmt.Errorf("MED return %s: the provider reads no infractions", t.ID)
	}
	inf, err := w.infractions.InfractionOfReturn(ctx, t.ID)
	if err != nil {
		return "", err
	}
	charge, err := w.refundedCharge(ctx, t)
	if err != nil {
		return "", err
	}
	pi, err := d.ReadInfraction(ctx, providerclient.InfractionRef{ProviderID: inf.ProviderID, Charge: charge})
	switch {
	case errors.Is(err, providerclient.ErrRejected):
		return "", fmt.Errorf("MED return %s: reading infraction %s: %v", t.ID, inf.ProviderID, err) // retried, never failed
	case err != nil:
		return "", err
	case pi.Return == nil || pi.Return.ProviderID == "":
		return "", fmt.Errorf("MED return %s: the provider has not made the return of infraction %s yet", t.ID, inf.ProviderID)
	}
	return pi.Return.ProviderID, nil
}

// payoutRef, refundRef and medReturnRef name a transfer for the provider
// to read.
func payoutRef(_ context.Context, _ *Worker, t storage.Transfer) (providerclient.Ref, error) {
	ref := providerclient.Ref{Kind: providerclient.KindPayout, ID: t.ID.String()}
	if t.PixID != nil {
		ref.ProviderID = *t.PixID
	}
	return ref, nil
}

func refundRef(ctx context.Context, w *Worker, t storage.Transfer) (providerclient.Ref, error) {
	charge, err := w.refundedCharge(ctx, t)
	if err != nil {
		return providerclient.Ref{}, err
	}
	ref := providerclient.Ref{Kind: providerclient.KindRefund, ID: t.ID.String(), Charge: &charge}
	if t.PixID != nil {
		ref.ProviderID = *t.PixID
	}
	return ref, nil
}

func medReturnRef(ctx context.Context, w *Worker, t storage.Transfer) (providerclient.Ref, error) {
	ref, err := refundRef(ctx, w, t)
	ref.Kind = providerclient.KindMedReturn
	return ref, err
}

// needsEndToEnd says whether the provider names a refunded charge by the
// end-to-end id of the PIX that paid it (the BCB API Pix), which the
// refund's record does not carry: only then is the charge read.
func needsEndToEnd(p Provider) bool {
	c, ok := p.(interface {
		Capabilities() providerclient.Capabilities
	})
	return ok && c.Capabilities().RefundNeedsEndToEndID
}
