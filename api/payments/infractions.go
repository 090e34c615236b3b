package payments

import (
	"cmp"
	"context"
	"errors"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
)

// InfractionStore is the part of storage the MED operations use.
type InfractionStore interface {
	ListInfractions(ctx context.Context, p storage.ListParams) ([]storage.Infraction, bool, error)
	Infraction(ctx context.Context, integratorID int64, id uuid.UUID) (storage.Infraction, error)
	ChargeByID(ctx context.Context, id uuid.UUID) (storage.Charge, error)
	ClaimDefense(ctx context.Context, integratorID int64, id uuid.UUID, text string) (storage.Infraction, error)
	ForwardedDefense(ctx context.Context, id uuid.UUID) (storage.Infraction, error)
	DropDefense(ctx context.Context, id uuid.UUID) error
}

// defender is a provider that takes defenses; a providerclient.Connector
// is one.
type defender interface {
	Capabilities() providerclient.Capabilities
	DefendInfraction(ctx context.Context, ref providerclient.InfractionRef, text string) error
}

// Infractions is one page of the integrator's MED infractions, newest
// first (p.Status filters).
func (s *Service) Infractions(ctx context.Context, p storage.ListParams) ([]storage.Infraction, bool, error) {
	return s.infractions.ListInfractions(ctx, p)
}

// Infraction is one of the integrator's infractions; another's is
// storage.ErrNotFound.
func (s *Service) Infraction(ctx context.Context, integratorID int64, id uuid.UUID) (storage.Infraction, error) {
	return s.infractions.Infraction(ctx, integratorID, id)
}

// DefendInfraction records the integrator's defense of an open infraction
// and passes it to the provider that took the disputed charge (which
// holds the infraction), where that provider takes defenses (efi); one
// that takes none (the family) leaves it with PixGate, for the
// integrator's records and its operator, and forwarded stays false. An
// infraction takes one defense: the claim (storage.ClaimDefense) makes two
// concurrent ones reach the provider once. A provider's refusal or failure
// drops the claim, so the integrator may try again, and is returned as it
// is (storage.ErrInfractionClosed and storage.ErrDefenseExists for the
// infraction's own state).
func (s *Service) DefendInfraction(ctx context.Context, integratorID int64, id uuid.UUID, text string) (storage.Infraction, error) {
	inf, err := s.infractions.ClaimDefense(ctx, integratorID, id, text)
	if err != nil {
		return inf, err
	}
	ref := providerclient.InfractionRef{ProviderID: inf.ProviderID}
	var at any = s.provider
	if c, err := s.infractions.ChargeByID(ctx, inf.ChargeID); err == nil {
		ref.Charge = providerclient.Ref{Kind: providerclient.KindCharge, ID: c.ID.String()}
		if c.PixID != nil {
			ref.Charge.ProviderID = *c.PixID
		}
		if c.EndToEndID != nil {
			ref.Charge.EndToEndID = *c.EndToEndID
		}
		// The disputed charge's provider holds the infraction.
		if ps, ok := s.provider.(Providers); ok {
			if p, ok := ps.Provider(cmp.Or(c.Provider, providerclient.DefaultName)); ok {
				at = p
			}
		}
	}
	d, ok := at.(defender)
	if !ok || !d.Capabilities().InfractionDefense {
		return inf, nil
	}
	if err := d.DefendInfraction(ctx, ref, text); err != nil {
		if errors.Is(err, providerclient.ErrUnsupported) {
			return inf, nil // kept, as where the provider says up front it takes none
		}
		if derr := s.infractions.DropDefense(context.WithoutCancel(ctx), id); derr != nil {
			s.log.Error("a defense the provider did not take stays claimed", "infraction_id", id, "error", derr)
		}
		return storage.Infraction{}, err
	}
	return s.infractions.ForwardedDefense(ctx, id)
}
