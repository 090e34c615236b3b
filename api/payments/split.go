package payments

import (
	"context"
	"errors"
	"fmt"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/split"
)

// ErrSplit: a charge's split names a sub-account that is not the
// integrator's, or shares that do not fit the charge's net.
var ErrSplit = errors.New("the split does not fit the charge")

// checkSplit judges a charge's split (already well formed) against the
// integrator and the charge: every recipient one of the integrator's own
// sub-accounts (another integrator's is as unknown as one that does not
// exist), and the recipients' parts within the charge's net (amount less
// fee). For a due-date charge the net of its original amount counts.
func (s *Service) checkSplit(ctx context.Context, in storage.Integrator, r ChargeRequest, fee money.Money) error {
	if len(r.Split) == 0 {
		return nil
	}
	sp, err := split.Decode(r.Split)
	if err != nil {
		return fmt.Errorf("payments: a validated split does not decode: %w", err)
	}
	ids := make([]int64, len(sp.Recipients))
	for i, rc := range sp.Recipients {
		ids[i] = rc.SubAccount
	}
	foreign, err := s.store.ForeignSubAccounts(ctx, in.ID, ids)
	if err != nil {
		return err
	}
	for i, id := range ids {
		for _, f := range foreign {
			if f == id {
				return &RuleError{Rule: ErrSplit, Field: fmt.Sprintf("split.recipients[%d].sub_account", i),
					Detail: "is not one of this account's sub-accounts"}
			}
		}
	}
	if i, field, problem := sp.Check(r.Amount, fee); i >= 0 {
		return &RuleError{Rule: ErrSplit, Field: fmt.Sprintf("split.recipients[%d].%s", i, field), Detail: problem}
	}
	return nil
}
