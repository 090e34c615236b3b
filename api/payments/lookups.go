package payments

import (
	"context"

	"github.com/pixgate/pixgate/storage"
)

// Balance reads the integrator's wallet.
func (s *Service) Balance(ctx context.Context, integratorID int64) (storage.Wallet, error) {
	return s.store.Wallet(ctx, integratorID)
}

// Transaction finds the integrator's charge, withdrawal or refund whose
// pix_id is pixID (see storage.TransactionByPixID). Another integrator's is
// storage.ErrNotFound, like one that does not exist.
func (s *Service) Transaction(ctx context.Context, integratorID int64, pixID string) (storage.PixTransaction, error) {
	return s.store.TransactionByPixID(ctx, integratorID, pixID)
}
