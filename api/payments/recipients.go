package payments

import (
	"context"
	"errors"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/pix"
	"github.com/pixgate/pixgate/storage"
)

// checkRecipient checks a same-holder integrator's withdrawal recipient
// before anything is reserved, as a bank does before it sends a PIX: the
// key must be in the DICT, not marked for fraud, and belong to
// creditParty.taxId. A key of type CPF or CNPJ is its holder's document.
//
// The key is read by the integrator's own providers (directoryFor). The
// check tells whether a document is the key's holder's, which a masked
// lookup does not, so it spends the integrator's lookup budget as GET
// /api/v1/pix-keys does, a key not found or another holder's key as a
// miss: without it, withdrawals naming every candidate document would
// find a holder's whole CPF. Over the budget it is refused whatever the
// key.
//
// When none of the integrator's providers offers a lookup, or the one
// asked cannot be reached, only a CPF or CNPJ key that is
// creditParty.taxId itself passes (anything else cannot be shown to be the
// holder's, and is refused, or answered 503 while the provider is down);
// that rule compares the request with itself and tells nothing.
func (s *Service) checkRecipient(ctx context.Context, integratorID int64, cp storage.CreditParty) error {
	documentKey := cp.KeyType == string(pix.KeyCPF) || cp.KeyType == string(pix.KeyCNPJ)
	holder, err := s.LookupKey(ctx, integratorID, cp.KeyType, cp.Key)
	switch {
	case errors.Is(err, ErrOverLookupBudget):
		return err // nothing looked up, nothing to judge by
	case errors.Is(err, providerclient.ErrNotFound):
		return &RuleError{Rule: ErrKeyNotFound, Field: "creditParty.key", Detail: "is not a PIX key: the DICT has no such key"}
	case err == nil && holder.FraudMarked:
		return &RuleError{Rule: ErrKeyFraudMarked, Field: "creditParty.key",
			Detail: "is marked for fraud in the DICT: no PIX is sent to it"}
	case err == nil && !pix.SameDocument(cp.TaxID, holder.Document):
		s.missed(ctx, integratorID) // the answer a guess of the holder's document mostly gets
		s.countLookups(ctx, integratorID, 0, 1)
		return notSameHolder()
	case err == nil:
		return nil
	case documentKey && cp.Key == cp.TaxID:
		return nil
	case errors.Is(err, providerclient.ErrUnsupported), documentKey:
		return notSameHolder()
	}
	return err // the provider is unreachable: 503, nothing reserved
}

func notSameHolder() error {
	return &RuleError{Rule: ErrNotSameHolder, Field: "creditParty.taxId",
		Detail: "must be the document of the key's holder: this account pays only to its recipients' own keys (same holder)"}
}
