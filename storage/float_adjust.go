package storage

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/pixgate/pixgate/storage/ledger"
	"github.com/pixgate/pixgate/storage/money"
)

// AdjustFloat posts an operator's correction of provider's float (see
// floatAdjusted): delta > 0 when the provider holds that much more than
// PixGate expects, < 0 when less. It names no day: the reconciliation
// counts it in what PixGate expects the provider to hold from when it is
// posted, and in no day's movement, for money that moved on no day it
// reconciles (what the account held before PixGate's first transaction).
// Under the same reference a second run fails with ledger.ErrDuplicate
// and changes nothing; an empty reference posts under a new random one. A
// provider that is neither the default one nor a record is
// ErrUnknownProvider.
func (db *DB) AdjustFloat(ctx context.Context, provider string, delta money.Money, reason, reference string) (ledger.Posted, error) {
	return db.AdjustFloatOn(ctx, provider, "", delta, reason, reference)
}

// AdjustFloatOn is AdjustFloat for money that moved at the provider on
// day (YYYY-MM-DD) outside any line of its statement (a tariff, a
// deposit): that day's reconciliation counts it as a movement of the day,
// whenever it was posted, so the day it explains reconciles when run
// again and the days after are not disturbed. An empty day names none.
func (db *DB) AdjustFloatOn(ctx context.Context, provider, day string, delta money.Money, reason, reference string) (ledger.Posted, error) {
	if delta == 0 {
		return ledger.Posted{}, fmt.Errorf("%w: an adjustment must not be zero", ledger.ErrInvalid)
	}
	if day != "" {
		if _, err := time.Parse(time.DateOnly, day); err != nil {
			return ledger.Posted{}, fmt.Errorf("%w: the day must be YYYY-MM-DD: %w", ledger.ErrInvalid, err)
		}
	}
	if provider != DefaultProvider {
		if _, err := db.ProviderByName(ctx, provider); err != nil {
			return ledger.Posted{}, err
		}
	}
	if reference == "" {
		reference = uuid.NewString()
	}
	var posted ledger.Posted
	err := db.inTx(ctx, func(tx pgx.Tx) (err error) {
		if posted, err = ledger.Post(ctx, tx, floatAdjusted(provider, delta, reason, reference)); err != nil || day == "" {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO float_adjustment_days (transaction_id, day) VALUES ($1, $2::date)`, posted.ID, day); err != nil {
			return fmt.Errorf("storage: the day of a float adjustment: %w", err)
		}
		return nil
	})
	return posted, err
}
