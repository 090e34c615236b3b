package storage

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// RecordLookup names the record of PixGate's a notification is about, by
// the provider's id for it: a charge, or a transfer of Kind. The zero
// value names none.
type RecordLookup struct {
	Charge bool
	Kind   TransferKind // when not a charge; "" for none
	PixID  string
}

// EventRecord is the record a RecordLookup found: a charge, a transfer or
// neither.
type EventRecord struct {
	Charge   *Charge
	Transfer *Transfer
}

// PickProviderEvent returns one stored notification for a worker that is
// about to consult the provider for it, and records that the consult has
// begun: from then on a copy of its claim is stored on its own (see
// RecordProviderEvent), since this consult may predate what the copy
// reports. The record look names, when it names one, is read in the same
// round trip and the same implicit transaction (one pipeline, one commit):
// the caller checks that the event's claim is the one it looked up.
func (db *DB) PickProviderEvent(ctx context.Context, id int64, look RecordLookup) (ProviderEvent, EventRecord, error) {
	var (
		ev                     ProviderEvent
		c                      Charge
		t                      Transfer
		picked, isCharge, isTr bool
	)
	err := db.pipeline(ctx, func(b *pgx.Batch) {
		queueOne(b, &ev, &picked, scanEvent, `UPDATE provider_events SET picked_at = now() WHERE id = $1 RETURNING `+eventColumns, id)
		switch {
		case look.PixID == "":
		case look.Charge:
			queueOne(b, &c, &isCharge, scanCharge, `SELECT `+chargeColumns+` FROM charges WHERE pix_id = $1`, look.PixID)
		case look.Kind != "":
			queueOne(b, &t, &isTr, look.Kind.scan, `SELECT `+look.Kind.columns()+` FROM `+look.Kind.spec().table+` WHERE pix_id = $1`, look.PixID)
		}
	})
	switch {
	case err != nil:
		return ProviderEvent{}, EventRecord{}, fmt.Errorf("storage: pick provider event %d: %w", id, err)
	case !picked:
		return ProviderEvent{}, EventRecord{}, ErrNotFound
	}
	var rec EventRecord
	if isCharge {
		rec.Charge = &c
	}
	if isTr {
		rec.Transfer = &t
	}
	return ev, rec, nil
}
