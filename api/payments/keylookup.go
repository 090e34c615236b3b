package payments

import (
	"context"
	"errors"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/fleet"
)

// directory is a provider that looks PIX keys up in the DICT; a
// providerclient.Connector is one.
type directory interface {
	Capabilities() providerclient.Capabilities
	LookupKey(ctx context.Context, keyType, key string) (*providerclient.KeyHolder, error)
}

// chooser finds a provider of the process by its name and orders a route
// for a lane as the fleet does; a *fleet.Fleet is one.
type chooser interface {
	Providers
	Choose(ctx context.Context, route fleet.Route, lane providerclient.Lane) string
}

// The service finds the fleet's choice by this interface at run time: a
// change of the fleet's signature must not turn it off unnoticed.
var _ chooser = (*fleet.Fleet)(nil)

// LookupKey asks who a key (canonical, with its type) belongs to, through
// the integrator's own providers (see directoryFor):
// providerclient.ErrNotFound when the DICT does not have it,
// providerclient.ErrUnsupported when no provider of the integrator's
// withdrawal route offers a lookup. A lookup made spends the integrator's
// LookupBudget, a key not found LookupMissCost; over the budget, nothing
// is looked up (ErrOverLookupBudget).
func (s *Service) LookupKey(ctx context.Context, integratorID int64, keyType, key string) (*providerclient.KeyHolder, error) {
	d, err := s.directoryFor(ctx, integratorID)
	if err != nil {
		return nil, err
	}
	if err := s.takeLookup(ctx, integratorID); err != nil {
		return nil, err
	}
	h, err := d.LookupKey(ctx, keyType, key)
	miss := errors.Is(err, providerclient.ErrNotFound)
	if miss {
		s.missed(ctx, integratorID)
	}
	if err == nil || miss {
		s.countLookups(ctx, integratorID, 1, boolInt(miss))
	}
	return h, err
}

// directoryFor is the provider that reads the DICT for an integrator: the
// first of its withdrawal route that offers a lookup, in the fleet's order
// (in service, then eliminated, then breaker open), as its withdrawals'
// first sends are chosen. A lookup speaks for the providers the
// integrator's PIX would be sent by, so no provider outside the route is
// asked: a route without lookups is ErrUnsupported, whatever the default
// provider offers, and the chosen provider, when it cannot be reached,
// answers for itself (ErrUnavailable) rather than the route's next one
// answering in its place. A Provider that is no fleet is the process's
// only provider and answers for every integrator.
func (s *Service) directoryFor(ctx context.Context, integratorID int64) (directory, error) {
	unsupported := &providerclient.Error{Op: providerclient.OpLookupKey, Kind: providerclient.ErrUnsupported}
	fl, ok := s.provider.(chooser)
	if !ok {
		d, ok := s.provider.(directory)
		if !ok || !d.Capabilities().KeyLookup {
			return nil, unsupported
		}
		return d, nil
	}
	route, err := s.store.RouteFor(ctx, integratorID)
	if err != nil {
		return nil, err
	}
	var offers fleet.Route
	known := false
	for _, name := range route.Withdrawals {
		c, ok := fl.Provider(name)
		known = known || ok
		if ok && c.Capabilities().KeyLookup {
			offers = append(offers, fleet.Choice{Provider: name})
		}
	}
	if !known {
		return nil, &providerclient.Error{Op: providerclient.OpLookupKey, Kind: providerclient.ErrUnavailable, Message: "no provider on the integrator's route"}
	}
	if len(offers) == 0 {
		return nil, unsupported
	}
	c, _ := fl.Provider(fl.Choose(ctx, offers, providerclient.LaneRead)) // every one of offers is known
	return c, nil
}
