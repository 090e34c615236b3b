package worker

import (
	"context"
	"errors"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
)

// chargeRef names a charge for the provider to read: PixGate's id, the
// provider's and, once paid, the end-to-end id of the PIX that paid it.
func chargeRef(c storage.Charge) providerclient.Ref {
	r := providerclient.Ref{Kind: providerclient.KindCharge, ID: c.ID.String()}
	if c.PixID != nil {
		r.ProviderID = *c.PixID
	}
	if c.EndToEndID != nil {
		r.EndToEndID = *c.EndToEndID
	}
	return r
}

// eventRef is what to read for a stored notification: the record of
// PixGate's it names, when there is one (returned as seen, so that applying
// the provider's answer need not read it again), else only what it claims
// (the provider is asked all the same; PixGate has nothing to change).
func (w *Worker) eventRef(ctx context.Context, ev storage.ProviderEvent) (providerclient.Ref, seen, error) {
	ref := providerclient.Ref{Kind: providerclient.Kind(ev.TransactionType), ProviderID: ev.TransactionID}
	var known seen
	var err error
	if ref.Kind == providerclient.KindCharge {
		var c storage.Charge
		if c, err = w.charges.ChargeByPixID(ctx, ev.TransactionID); err == nil {
			ref, known.charge = chargeRef(c), &c
		}
	} else if kind, ok := transferKindOf(ref.Kind); ok {
		var t storage.Transfer
		if t, err = w.transfers.TransferByPixID(ctx, kind, ev.TransactionID); err == nil {
			known.transfer = &t
			ref, err = outbound[kind].ref(ctx, w, t)
		}
	}
	if errors.Is(err, storage.ErrNotFound) {
		return ref, seen{}, nil
	}
	return ref, known, err
}
