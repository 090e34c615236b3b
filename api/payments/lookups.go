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

// Charge finds one of the integrator's charges by its id or its
// external_id; another integrator's is storage.ErrNotFound.
func (s *Service) Charge(ctx context.Context, integratorID int64, ref string) (storage.Charge, error) {
	return s.store.Charge(ctx, integratorID, ref)
}

// Withdrawal finds one of the integrator's withdrawals by its id or its
// external_id; another integrator's is storage.ErrNotFound.
func (s *Service) Withdrawal(ctx context.Context, integratorID int64, ref string) (storage.Transfer, error) {
	return s.store.Transfer(ctx, storage.KindWithdrawal, integratorID, ref)
}

// Charges is one page of the integrator's charges (p.IntegratorID), newest
// first, and whether more follow.
func (s *Service) Charges(ctx context.Context, p storage.ListParams) ([]storage.Charge, bool, error) {
	return s.store.ListCharges(ctx, p)
}

// Withdrawals is one page of the integrator's withdrawals, as Charges.
func (s *Service) Withdrawals(ctx context.Context, p storage.ListParams) ([]storage.Transfer, bool, error) {
	return s.store.ListTransfers(ctx, storage.KindWithdrawal, p)
}
