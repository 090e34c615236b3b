package payments

import (
	"context"
	"errors"
	"fmt"
)

// LookupBudget is an account's budget of key lookups: GET
// /api/v1/pix-keys and the same-holder check of a withdrawal, on either
// surface, spend the one budget, so that the check is no way round it.
// The API keeps it in Redis; nil Config.LookupBudget: lookups are not
// limited.
type LookupBudget interface {
	// Take takes tokens from the integrator's budget before a lookup is
	// made. Over the budget it takes nothing and fails; its error is
	// returned as it is, and nothing is looked up.
	Take(ctx context.Context, integratorID int64, tokens int) error
	// Owe takes tokens after the answer, whatever is left: the budget may
	// go into debt, which the lookups that follow wait out. A miss is
	// known only once it is answered, and owed then in full.
	Owe(ctx context.Context, integratorID int64, tokens int)
}

// ErrOverLookupBudget is a lookup the integrator's LookupBudget refused:
// nothing was looked up. It wraps the budget's own error.
var ErrOverLookupBudget = errors.New("over the account's key lookup budget")

// What a lookup costs, in tokens of the budget, as the DICT's own
// anti-scan buckets charge a participant's reads (bacen/pix-dict-api,
// "Limitação de requisições": a read 1 token, a miss 20). A miss for the
// caller (a key the DICT does not have, or a recipient who is not the
// key's holder) is what someone enumerating keys or guessing a holder's
// document mostly gets, and what an honest caller rarely does; at twenty
// times a hit, an account's budget lets through few guesses a minute and
// still almost every lookup made to pay someone.
const (
	// LookupCost is taken from the budget before every lookup.
	LookupCost = 1
	// LookupMissCost is what a lookup answered with a miss costs in all:
	// LookupMissCost − LookupCost more is owed once the miss is known.
	LookupMissCost = 20
)

// takeLookup takes a lookup's cost from the integrator's budget.
func (s *Service) takeLookup(ctx context.Context, integratorID int64) error {
	if s.cfg.LookupBudget == nil {
		return nil
	}
	if err := s.cfg.LookupBudget.Take(ctx, integratorID, LookupCost); err != nil {
		return fmt.Errorf("%w: %w", ErrOverLookupBudget, err)
	}
	return nil
}

// missed owes the rest of a miss's cost.
func (s *Service) missed(ctx context.Context, integratorID int64) {
	if s.cfg.LookupBudget != nil {
		s.cfg.LookupBudget.Owe(ctx, integratorID, LookupMissCost-LookupCost)
	}
}

// LookupCounter counts an integrator's key lookups and misses of the day,
// for the lookup-to-payment ratio (pixgate lookups ratio); *storage.DB is
// one. A store without it counts nothing.
type LookupCounter interface {
	CountKeyLookup(ctx context.Context, integratorID int64, lookups, misses int) error
}

// countLookups counts lookups answered and misses. A failure is logged,
// never the request's: the count is a report's, not a control's (the
// budget is that).
func (s *Service) countLookups(ctx context.Context, integratorID int64, lookups, misses int) {
	if s.lookups == nil {
		return
	}
	if err := s.lookups.CountKeyLookup(ctx, integratorID, lookups, misses); err != nil {
		s.log.WarnContext(ctx, "could not count a key lookup", "integrator_id", integratorID, "err", err)
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
