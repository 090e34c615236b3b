package storage

import (
	"context"
	"errors"
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
	b := &pgx.Batch{}
	b.Queue(`UPDATE provider_events SET picked_at = now() WHERE id = $1 RETURNING `+eventColumns, id)
	switch {
	case look.PixID == "":
	case look.Charge:
		b.Queue(`SELECT `+chargeColumns+` FROM charges WHERE pix_id = $1`, look.PixID)
	case look.Kind != "":
		b.Queue(`SELECT `+look.Kind.columns()+` FROM `+look.Kind.spec().table+` WHERE pix_id = $1`, look.PixID)
	}
	br := db.pool.SendBatch(ctx, b)
	defer br.Close()
	rows, _ := br.Query()
	ev, err := pgx.CollectExactlyOneRow(rows, scanEvent)
	if err != nil {
		return ev, EventRecord{}, notFound(err)
	}
	var rec EventRecord
	switch {
	case b.Len() == 1:
	case look.Charge:
		rows, _ := br.Query()
		c, err := pgx.CollectExactlyOneRow(rows, scanCharge)
		if err == nil {
			rec.Charge = &c
		} else if !errors.Is(err, pgx.ErrNoRows) {
			return ev, rec, fmt.Errorf("storage: charge of provider event %d: %w", id, err)
		}
	default:
		rows, _ := br.Query()
		t, err := pgx.CollectExactlyOneRow(rows, look.Kind.scan)
		if err == nil {
			rec.Transfer = &t
		} else if !errors.Is(err, pgx.ErrNoRows) {
			return ev, rec, fmt.Errorf("storage: %s of provider event %d: %w", look.Kind, id, err)
		}
	}
	return ev, rec, br.Close()
}
