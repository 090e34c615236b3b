package fleet

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/pixgate/pixgate/providerclient"
)

// ErrBulkheadFull is a call refused because the provider already has
// Options.MaxInFlight calls of its lane in flight from this process:
// nothing was sent.
// It is also providerclient.ErrUnavailable.
var ErrBulkheadFull = fmt.Errorf("%w: too many calls in flight", providerclient.ErrUnavailable)

// member is one provider with its layers.
type member struct {
	f    *Fleet
	name string
	// breaker is the circuit-breaker layer, asked for its lanes' states.
	breaker providerclient.Connector
	// patient retries transient failures in process; hasty does not.
	patient, hasty *guarded
	// slots is each lane's bulkhead.
	slots  map[providerclient.Lane]chan struct{}
	health health
	// notify is the provider's own webhook URL (Config.WebhookURL), sent
	// as the notification address of its charges, payouts and refunds.
	notify string
	// readTimeout bounds a read, its hedges included (Config.ReadTimeout);
	// lat is how long its recent reads took to answer (hedge.go).
	readTimeout time.Duration
	lat         latencies
}

func (f *Fleet) newMember(cfg providerclient.Config, bare providerclient.Connector) *member {
	m := &member{f: f, name: cfg.Name, slots: map[providerclient.Lane]chan struct{}{}, notify: cfg.WebhookURL, readTimeout: cfg.ReadTimeout}
	for _, lane := range providerclient.Lanes {
		m.slots[lane] = make(chan struct{}, f.opts.MaxInFlight)
		f.metrics.breakerState(cfg.Name, lane, "closed")
	}
	m.health.win.span = max(f.opts.HealthWindow/10, time.Millisecond)
	told := cfg.OnBreakerStateChange
	cfg.OnBreakerStateChange = func(lane providerclient.Lane, from, to string) {
		f.metrics.breakerState(cfg.Name, lane, to)
		f.opts.Log.Warn("provider circuit breaker changed state", "provider", cfg.Name, "lane", lane, "from", from, "to", to)
		if told != nil {
			told(lane, from, to)
		}
	}
	f.metrics.eliminated(cfg.Name, false)
	c := bare
	if f.opts.Metrics != nil {
		c = providerclient.WithMetrics(c, f.opts.Metrics)
	}
	m.breaker = providerclient.WithBreaker(c, cfg)
	m.hasty = &guarded{m: m, next: m.breaker}
	m.patient = &guarded{m: m, next: providerclient.WithRetry(m.breaker, cfg)}
	return m
}

// open says whether the provider's breaker of lane is open (its calls fail
// at once).
func (m *member) open(lane providerclient.Lane) bool {
	return providerclient.BreakerState(m.breaker, lane) == "open"
}

// notifyURL is where the provider is told to notify a call: its own
// webhook URL when it has one, whatever the caller asked.
func (m *member) notifyURL(asked string) string {
	if m.notify != "" {
		return m.notify
	}
	return asked
}

// guarded is a provider behind its bulkhead and health score: a
// providerclient.Connector.
type guarded struct {
	m    *member
	next providerclient.Connector
}

// run makes one call within the bulkhead of op's lane and counts its
// outcome in the provider's health.
func run[T any](ctx context.Context, g *guarded, op string, call func() (*T, error)) (*T, error) {
	m := g.m
	lane := providerclient.LaneOf(op)
	slots := m.slots[lane]
	select {
	case slots <- struct{}{}:
	default:
		m.f.metrics.bulkheadFull(m.name, lane)
		return nil, &providerclient.Error{Op: op, Kind: ErrBulkheadFull}
	}
	m.f.metrics.inFlight(m.name, lane, 1)
	res, err := call()
	<-slots
	m.f.metrics.inFlight(m.name, lane, -1)
	m.record(ctx, err)
	return res, err
}

func (g *guarded) Name() string                              { return g.m.name }
func (g *guarded) Kind() string                              { return g.next.Kind() }
func (g *guarded) Capabilities() providerclient.Capabilities { return g.next.Capabilities() }

func (g *guarded) CreateCharge(ctx context.Context, req providerclient.ChargeRequest) (*providerclient.Charge, error) {
	if req.Due != nil && !g.next.Capabilities().DueCharges {
		// Never asked: a connector without due-date charges would issue an
		// immediate one. Unsupported moves the charge on along its route.
		return nil, &providerclient.Error{Op: providerclient.OpCharge, Kind: providerclient.ErrUnsupported, Message: "due-date charges"}
	}
	req.NotifyURL = g.m.notifyURL(req.NotifyURL)
	return run(ctx, g, providerclient.OpCharge, func() (*providerclient.Charge, error) { return g.next.CreateCharge(ctx, req) })
}

func (g *guarded) SendPix(ctx context.Context, req providerclient.PayoutRequest) (*providerclient.Payout, error) {
	req.NotifyURL = g.m.notifyURL(req.NotifyURL)
	return run(ctx, g, providerclient.OpPayout, func() (*providerclient.Payout, error) { return g.next.SendPix(ctx, req) })
}

func (g *guarded) Refund(ctx context.Context, req providerclient.RefundRequest) (*providerclient.Refund, error) {
	req.NotifyURL = g.m.notifyURL(req.NotifyURL)
	return run(ctx, g, providerclient.OpRefund, func() (*providerclient.Refund, error) { return g.next.Refund(ctx, req) })
}

// Read is hedged (hedge.go): a read is safe to repeat.
func (g *guarded) Read(ctx context.Context, ref providerclient.Ref) (*providerclient.Transaction, error) {
	return hedged(ctx, g, providerclient.OpRead, func(ctx context.Context) (*providerclient.Transaction, error) { return g.next.Read(ctx, ref) })
}

func (g *guarded) Balance(ctx context.Context) (*providerclient.Balance, error) {
	return run(ctx, g, providerclient.OpBalance, func() (*providerclient.Balance, error) { return g.next.Balance(ctx) })
}

func (g *guarded) ParseNotification(h http.Header, body []byte) ([]providerclient.Event, error) {
	return g.next.ParseNotification(h, body)
}

func (g *guarded) ReadInfraction(ctx context.Context, ref providerclient.InfractionRef) (*providerclient.Infraction, error) {
	return run(ctx, g, providerclient.OpReadInfraction, func() (*providerclient.Infraction, error) { return g.next.ReadInfraction(ctx, ref) })
}

func (g *guarded) ListInfractions(ctx context.Context, since time.Time) ([]providerclient.Infraction, error) {
	list, err := run(ctx, g, providerclient.OpListInfractions, func() (*[]providerclient.Infraction, error) {
		l, err := g.next.ListInfractions(ctx, since)
		return &l, err
	})
	if list == nil {
		return nil, err
	}
	return *list, err
}

func (g *guarded) DefendInfraction(ctx context.Context, ref providerclient.InfractionRef, text string) error {
	_, err := run(ctx, g, providerclient.OpDefendInfraction, func() (*struct{}, error) { return nil, g.next.DefendInfraction(ctx, ref, text) })
	return err
}

func (g *guarded) LookupKey(ctx context.Context, keyType, key string) (*providerclient.KeyHolder, error) {
	return run(ctx, g, providerclient.OpLookupKey, func() (*providerclient.KeyHolder, error) { return g.next.LookupKey(ctx, keyType, key) })
}

func (g *guarded) Statement(ctx context.Context, req providerclient.StatementRequest) (*providerclient.StatementPage, error) {
	return run(ctx, g, providerclient.OpStatement, func() (*providerclient.StatementPage, error) { return g.next.Statement(ctx, req) })
}
