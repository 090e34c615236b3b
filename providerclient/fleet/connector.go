package fleet

import (
	"context"
	"net/http"
	"time"

	"github.com/pixgate/pixgate/providerclient"
)

// The fleet as one providerclient.Connector: a charge is created along the
// default route with failover; every other call goes to the first provider
// of the default route (the primary), with its retries.

func (f *Fleet) primary() *guarded { return f.members[f.route[0].Provider].patient }

// Name and Kind are the primary's.
func (f *Fleet) Name() string                              { return f.primary().Name() }
func (f *Fleet) Kind() string                              { return f.primary().Kind() }
func (f *Fleet) Capabilities() providerclient.Capabilities { return f.primary().Capabilities() }

// CreateCharge issues req along the default route (IssueCharge).
func (f *Fleet) CreateCharge(ctx context.Context, req providerclient.ChargeRequest) (*providerclient.Charge, error) {
	ch, _, err := f.IssueCharge(ctx, f.route, req)
	return ch, err
}

func (f *Fleet) SendPix(ctx context.Context, req providerclient.PayoutRequest) (*providerclient.Payout, error) {
	return f.primary().SendPix(ctx, req)
}

func (f *Fleet) Refund(ctx context.Context, req providerclient.RefundRequest) (*providerclient.Refund, error) {
	return f.primary().Refund(ctx, req)
}

func (f *Fleet) Read(ctx context.Context, ref providerclient.Ref) (*providerclient.Transaction, error) {
	return f.primary().Read(ctx, ref)
}

func (f *Fleet) Balance(ctx context.Context) (*providerclient.Balance, error) {
	return f.primary().Balance(ctx)
}

func (f *Fleet) ParseNotification(h http.Header, body []byte) ([]providerclient.Event, error) {
	return f.primary().ParseNotification(h, body)
}

func (f *Fleet) ReadInfraction(ctx context.Context, ref providerclient.InfractionRef) (*providerclient.Infraction, error) {
	return f.primary().ReadInfraction(ctx, ref)
}

func (f *Fleet) ListInfractions(ctx context.Context, since time.Time) ([]providerclient.Infraction, error) {
	return f.primary().ListInfractions(ctx, since)
}

func (f *Fleet) DefendInfraction(ctx context.Context, ref providerclient.InfractionRef, text string) error {
	return f.primary().DefendInfraction(ctx, ref, text)
}

func (f *Fleet) LookupKey(ctx context.Context, keyType, key string) (*providerclient.KeyHolder, error) {
	return f.primary().LookupKey(ctx, keyType, key)
}

func (f *Fleet) Statement(ctx context.Context, req providerclient.StatementRequest) (*providerclient.StatementPage, error) {
	return f.primary().Statement(ctx, req)
}

// Provider is the provider named name, with its retries: where a
// transaction recorded as that provider's is read, settled or notified.
func (f *Fleet) Provider(name string) (providerclient.Connector, bool) {
	m, ok := f.members[name]
	if !ok {
		return nil, false
	}
	return m.patient, true
}

// Providers is every provider of the fleet, with its retries, in the
// default route's order (the default provider first).
func (f *Fleet) Providers() []providerclient.Connector {
	out := make([]providerclient.Connector, 0, len(f.route))
	for _, c := range f.route {
		out = append(out, f.members[c.Provider].patient)
	}
	return out
}

// BreakerStates is each provider's circuit breaker of each lane:
// "closed", "half-open" or "open". Provider and Providers return each
// provider's outer layers, which providerclient.BreakerState does not see
// through; the operators' console shows these.
func (f *Fleet) BreakerStates() map[string]map[providerclient.Lane]string {
	out := make(map[string]map[providerclient.Lane]string, len(f.members))
	for name, m := range f.members {
		lanes := make(map[providerclient.Lane]string, len(providerclient.Lanes))
		for _, lane := range providerclient.Lanes {
			lanes[lane] = providerclient.BreakerState(m.breaker, lane)
		}
		out[name] = lanes
	}
	return out
}
