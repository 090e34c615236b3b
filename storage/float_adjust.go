package storage

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/pixgate/pixgate/storage/ledger"
	"github.com/pixgate/pixgate/storage/money"
)

// AdjustFloat posts an operator's correction of provider's float (see
// floatAdjusted): delta > 0 when the provider holds that much more than
// PixGate expects, < 0 when less. Under the same reference a second run
// fails with ledger.ErrDuplicate and changes nothing; an empty reference
// posts under a new random one. A provider that is neither the default
// one nor a record is ErrUnknownProvider.
func (db *DB) AdjustFloat(ctx context.Context, provider string, delta money.Money, reason, reference string) (ledger.Posted, error) {
	if delta == 0 {
		return ledger.Posted{}, fmt.Errorf("%w: an adjustment must not be zero", ledger.ErrInvalid)
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
		posted, err = ledger.Post(ctx, tx, floatAdjusted(provider, delta, reason, reference))
		return err
	})
	return posted, err
}
