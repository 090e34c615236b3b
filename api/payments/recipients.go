package payments

import (
	"context"
	"errors"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/pix"
	"github.com/pixgate/pixgate/storage"
)

// directory is a provider that looks PIX keys up in the DICT; a
// providerclient.Connector is one.
type directory interface {
	Capabilities() providerclient.Capabilities
	LookupKey(ctx context.Context, keyType, key string) (*providerclient.KeyHolder, error)
}

// LookupKey asks the provider who a key (canonical, with its type) belongs
// to: providerclient.ErrNotFound when the DICT does not have it,
// providerclient.ErrUnsupported when the provider offers no lookup.
func (s *Service) LookupKey(ctx context.Context, keyType, key string) (*providerclient.KeyHolder, error) {
	d, ok := s.provider.(directory)
	if !ok || !d.Capabilities().KeyLookup {
		return nil, &providerclient.Error{Op: providerclient.OpLookupKey, Kind: providerclient.ErrUnsupported}
	}
	return d.LookupKey(ctx, keyType, key)
}

// checkRecipient checks a same-holder integrator's withdrawal recipient
// before anything is reserved, as a bank does before it sends a PIX: the
// key must be in the DICT, not marked for fraud, and belong to
// creditParty.taxId. A key of type CPF or CNPJ is its holder's document.
// When the provider offers no lookup, or cannot be reached, only a CPF or
// CNPJ key that is creditParty.taxId itself passes (anything else cannot
// be shown to be the holder's, and is refused, or answered 503 while the
// provider is down).
func (s *Service) checkRecipient(ctx context.Context, cp storage.CreditParty) error {
	documentKey := cp.KeyType == string(pix.KeyCPF) || cp.KeyType == string(pix.KeyCNPJ)
	holder, err := s.LookupKey(ctx, cp.KeyType, cp.Key)
	switch {
	case errors.Is(err, providerclient.ErrNotFound):
		return &RuleError{Rule: ErrKeyNotFound, Field: "creditParty.key", Detail: "is not a PIX key: the DICT has no such key"}
	case err == nil && holder.FraudMarked:
		return &RuleError{Rule: ErrKeyFraudMarked, Field: "creditParty.key",
			Detail: "is marked for fraud in the DICT: no PIX is sent to it"}
	case err == nil && !pix.SameDocument(cp.TaxID, holder.Document):
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
