package worker

import (
	"context"
	"errors"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/tasks"
)

// chargeRef names a charge for the provider to read: PixGate's id, the
// provider's and, once paid, the end-to-end id of the PIX that paid it;
// and whether it is a due-date charge, which some contracts read
// elsewhere.
func chargeRef(c storage.Charge) providerclient.Ref {
	r := providerclient.Ref{Kind: providerclient.KindCharge, ID: c.ID.String(), Due: c.Due != nil}
	if c.PixID != nil {
		r.ProviderID = *c.PixID
	}
	if c.EndToEndID != nil {
		r.EndToEndID = *c.EndToEndID
	}
	return r
}

// recordLookup is the record a notification task's claim names, for its
// event's pick to read (none when the task does not say).
func recordLookup(p tasks.ProviderEvent) storage.RecordLookup {
	k := providerclient.Kind(p.TransactionType)
	if k == providerclient.KindCharge {
		return storage.RecordLookup{Charge: true, PixID: p.TransactionID}
	}
	if kind, ok := transferKindOf(k); ok {
		return storage.RecordLookup{Kind: kind, PixID: p.TransactionID}
	}
	return storage.RecordLookup{}
}

// eventRef is what to read for a stored notification: the record of
// PixGate's it names, when there is one (returned as seen, so that applying
// the provider's answer need not read it again), else only what it claims
// (the provider is asked all the same; PixGate has nothing to change). rec
// is that record when the event's pick read it already: it is not read
// again. The record is found by the provider's id for it or, when PixGate
// has not linked one yet (a send whose answer was lost), by PixGate's own
// id where the notification names it.
func (w *Worker) eventRef(ctx context.Context, ev storage.ProviderEvent, rec storage.EventRecord) (providerclient.Ref, seen, error) {
	ref := providerclient.Ref{Kind: providerclient.Kind(ev.TransactionType), ProviderID: ev.TransactionID}
	own, ownErr := uuid.Parse(ev.ExternalID)
	var known seen
	var err error
	if ref.Kind == providerclient.KindCharge {
		c := rec.Charge
		if c == nil {
			var read storage.Charge
			read, err = w.charges.ChargeByPixID(ctx, ev.TransactionID)
			if errors.Is(err, storage.ErrNotFound) && ownErr == nil {
				read, err = w.charges.ChargeByID(ctx, own)
			}
			c = &read
		}
		if err == nil {
			ref, known.charge = chargeRef(*c), c
		}
	} else if kind, ok := transferKindOf(ref.Kind); ok {
		t := rec.Transfer
		if t == nil || t.Kind != kind {
			var read storage.Transfer
			read, err = w.transfers.TransferByPixID(ctx, kind, ev.TransactionID)
			if errors.Is(err, storage.ErrNotFound) && ownErr == nil {
				read, err = w.transfers.TransferByID(ctx, kind, own)
			}
			t = &read
		}
		if err == nil {
			known.transfer = t
			ref, err = outbound[kind].ref(ctx, w, *t)
			if ref.ProviderID == "" {
				// Found by PixGate's id: the claim names the provider's,
				// which the read confirms or refutes.
				ref.ProviderID = ev.TransactionID
			}
		}
	}
	if errors.Is(err, storage.ErrNotFound) {
		return ref, seen{}, nil
	}
	return ref, known, err
}
