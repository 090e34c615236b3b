// Package fleet is several settlement providers in one process: each
// provider's connector behind its own circuit breaker, retries, bulkhead
// (a bound on its calls in flight) and health score, and the choice of
// which provider takes a new charge, with failover from one to the next
// when the first provably created nothing.
//
// A provider's layers, outermost first:
//
//	bulkhead → health → [retry] → circuit breaker → [metrics] → connector
//
// Every provider has two faces over the same bulkhead, health and breaker:
// a patient one, with the in-process retries of providerclient.WithRetry,
// and a hasty one without them, for a call that another provider can take
// over at once.
//
// A Fleet is also a providerclient.Connector: charges are created along its
// default route with failover (CreateCharge), everything else goes to the
// first provider of that route.
package fleet

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/pixgate/pixgate/providerclient"
)

// Options tune the fleet's health scores, bulkheads and failover. Every
// zero value has a working default.
type Options struct {
	// HealthWindow is the sliding window a provider's success rate is
	// counted over, in ten buckets. Default 30s.
	HealthWindow time.Duration
	// HealthMinCalls is the least number of counted calls in the window
	// before a provider can be judged. Default 20.
	HealthMinCalls int
	// HealthThreshold is the success rate (0..1) below which a provider is
	// eliminated: taken out of routes, but for a last resort, until a probe
	// succeeds. Default 0.5.
	HealthThreshold float64
	// ProbeInterval is how often an eliminated provider is probed (its
	// balance read). Default 5s.
	ProbeInterval time.Duration
	// ReadTimeout bounds a probe and the read of a charge whose creation
	// timed out. Default 2s.
	ReadTimeout time.Duration
	// MaxInFlight bounds each provider's calls in flight in this process
	// (its bulkhead): one more fails at once, as unavailable, so that a
	// slow provider holds no more than its share of the callers. Default
	// 256.
	MaxInFlight int
	// HedgeAfter is the least a read waits for an answer before a hedge is
	// sent beside it (hedge.go); the wait follows the provider's recent
	// read answers above it. Default 200ms.
	HedgeAfter time.Duration
	// HedgeAttempts is the most attempts of one read in flight at once,
	// the first included. Default 3; 1 sends no hedge.
	HedgeAttempts int
	// CreateAttemptTimeout bounds a charge create at each provider of its
	// route but the last: unanswered by then, the charge goes to the next
	// provider (IssueCharge). Default 3s; never more than half of what is
	// left of the caller's time.
	CreateAttemptTimeout time.Duration
	// Metrics registers the per-provider metrics (and each connector's call
	// counts and latencies); nil records none.
	Metrics prometheus.Registerer
	// Log tells every failover, elimination, reinstatement and breaker
	// change; nil discards.
	Log *slog.Logger
	// Now is the clock of the health scores; default time.Now. Pick
	// chooses among weights, returning a number in [0, n); default
	// math/rand.
	Now  func() time.Time
	Pick func(n int) int
}

// Defaults applied to zero Options fields.
const (
	DefaultHealthWindow    = 30 * time.Second
	DefaultHealthMinCalls  = 20
	DefaultHealthThreshold = 0.5
	DefaultProbeInterval   = 5 * time.Second
	DefaultReadTimeout     = 2 * time.Second
	DefaultMaxInFlight     = 256
	DefaultHedgeAfter      = 200 * time.Millisecond
	DefaultHedgeAttempts   = 3
	DefaultCreateAttempt   = 3 * time.Second
)

func (o Options) withDefaults() Options {
	if o.HealthWindow <= 0 {
		o.HealthWindow = DefaultHealthWindow
	}
	if o.HealthMinCalls <= 0 {
		o.HealthMinCalls = DefaultHealthMinCalls
	}
	if o.HealthThreshold <= 0 || o.HealthThreshold > 1 {
		o.HealthThreshold = DefaultHealthThreshold
	}
	if o.ProbeInterval <= 0 {
		o.ProbeInterval = DefaultProbeInterval
	}
	if o.ReadTimeout <= 0 {
		o.ReadTimeout = DefaultReadTimeout
	}
	if o.MaxInFlight <= 0 {
		o.MaxInFlight = DefaultMaxInFlight
	}
	if o.HedgeAfter <= 0 {
		o.HedgeAfter = DefaultHedgeAfter
	}
	if o.HedgeAttempts <= 0 {
		o.HedgeAttempts = DefaultHedgeAttempts
	}
	if o.CreateAttemptTimeout <= 0 {
		o.CreateAttemptTimeout = DefaultCreateAttempt
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Pick == nil {
		o.Pick = rand.IntN
	}
	return o
}

// Member is one provider of a fleet: its settings (name, breaker, retries,
// OnBreakerStateChange) and its bare contract connector, without layers
// (connectors.Bare).
type Member struct {
	Config    providerclient.Config
	Connector providerclient.Connector
}

// Fleet is the process's providers. It is safe for concurrent use.
type Fleet struct {
	opts    Options
	members map[string]*member
	route   Route
	metrics *metrics
}

// New builds the fleet of members, each with its own layers; the default
// route is the members in the order given. Names must be unique.
func New(opts Options, members ...Member) (*Fleet, error) {
	opts = opts.withDefaults()
	if len(members) == 0 {
		return nil, fmt.Errorf("fleet: no provider")
	}
	f := &Fleet{opts: opts, members: make(map[string]*member, len(members)), metrics: newMetrics(opts.Metrics)}
	for _, m := range members {
		cfg := m.Config.WithDefaults()
		if _, dup := f.members[cfg.Name]; dup {
			return nil, fmt.Errorf("fleet: two providers named %q", cfg.Name)
		}
		f.members[cfg.Name] = f.newMember(cfg, m.Connector)
		f.route = append(f.route, Choice{Provider: cfg.Name})
	}
	return f, nil
}

// failover tells that a call left provider from for the next one of its
// route: one log line and one count.
func (f *Fleet) failover(ctx context.Context, op, from, to, reason string, err error) {
	f.metrics.failover(from, op, reason)
	f.opts.Log.WarnContext(ctx, "provider failover", "op", op, "from", from, "to", to, "reason", reason, "error", err)
}

// Failover tells that an operation made outside the fleet (a withdrawal's
// send, decided by the worker) left provider from for to, because of err:
// the same log line and count as the fleet's own failovers.
func (f *Fleet) Failover(ctx context.Context, op, from, to string, err error) {
	f.failover(ctx, op, from, to, reasonOf(err), err)
}
