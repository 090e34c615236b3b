package postback

import (
	"net"
	"time"

	"github.com/cenkalti/backoff/v4"
)

// Config is the delivery policy. Zero values get the defaults through
// WithDefaults.
type Config struct {
	// AllowPrivate lets deliveries reach loopback, private, link-local,
	// CGNAT, multicast and metadata addresses. Development only: in
	// production it would let any integrator make PixGate call into its own
	// network.
	AllowPrivate bool
	// AllowHTTP accepts http:// URLs. Development only: postbacks carry
	// payer data and would travel in clear text.
	AllowHTTP bool
	// Timeout bounds one attempt, from dialing to the end of the response.
	// Default 10s.
	Timeout time.Duration
	// MaxAge is how long after its creation a postback keeps being retried.
	// Default 72h.
	MaxAge time.Duration
	// InitialInterval is the delay after the first failed attempt; each
	// later delay doubles, with ±25% jitter so that a receiver coming back
	// up is not hit by every postback at the same second. Default 10s.
	InitialInterval time.Duration
	// MaxInterval caps the delay between two attempts (before jitter).
	// Default 6h.
	MaxInterval time.Duration
	// PerIntegrator is how many deliveries of one integrator one worker
	// process runs at once, so that an integrator whose endpoint hangs
	// holds that many of the postbacks lane and the other integrators'
	// deliveries go in the rest. Default 16, a quarter of the lane's
	// default 64: four endpoints hanging at once leave the others a
	// quarter of the lane, and one integrator alone (a burst of postbacks
	// is one integrator's, often) has twice the throughput it had with 8.
	PerIntegrator int
	// DisableAfter is how long every delivery to an endpoint may fail
	// before the reconciler disables it (its postbacks then wait, as a
	// paused endpoint's, until a resume). Default 72h.
	DisableAfter time.Duration
	// Resolver looks postback hosts up, at creation (CheckURL) and at
	// delivery alike. Default net.DefaultResolver.
	Resolver Resolver
}

func (c Config) resolver() Resolver {
	if c.Resolver == nil {
		return net.DefaultResolver
	}
	return c.Resolver
}

// Defaults of Config.
const (
	DefaultTimeout         = 10 * time.Second
	DefaultMaxAge          = 72 * time.Hour
	DefaultInitialInterval = 10 * time.Second
	DefaultMaxInterval     = 6 * time.Hour
	DefaultPerIntegrator   = 16
	DefaultDisableAfter    = 72 * time.Hour
)

// WithDefaults fills the zero durations.
func (c Config) WithDefaults() Config {
	if c.Timeout <= 0 {
		c.Timeout = DefaultTimeout
	}
	if c.MaxAge <= 0 {
		c.MaxAge = DefaultMaxAge
	}
	if c.InitialInterval <= 0 {
		c.InitialInterval = DefaultInitialInterval
	}
	if c.MaxInterval <= 0 {
		c.MaxInterval = DefaultMaxInterval
	}
	if c.PerIntegrator <= 0 {
		c.PerIntegrator = DefaultPerIntegrator
	}
	if c.DisableAfter <= 0 {
		c.DisableAfter = DefaultDisableAfter
	}
	if c.MaxInterval < c.InitialInterval {
		c.MaxInterval = c.InitialInterval
	}
	return c
}

// QueueMaxRetry is the asynq MaxRetry postback:deliver tasks need: with the
// default policy and every delay at its shortest, about 27 retries cover
// MaxAge, so the queue never drops a task before PixGate gives up on it
// (tasks.go sets the option; a test keeps this number sufficient). A
// policy with much shorter intervals may exhaust it: the reconciler then
// re-drives the postback from Postgres.
const QueueMaxRetry = 40

// jitter is backoff's RandomizationFactor: each delay is drawn from
// [0.75, 1.25] times its nominal value.
const jitter = 0.25

// Delay is how long to wait after the attempt-th failed attempt (1 for the
// first): InitialInterval doubling at each failure, capped at MaxInterval,
// with jitter. The schedule is computed by cenkalti/backoff rather than by
// hand so that it has the library's well-tested capping and randomization;
// a fresh ExponentialBackOff is stepped attempt times because the state
// that matters (the attempt count) lives in Postgres, not in memory.
func Delay(cfg Config, attempt int) time.Duration {
	cfg = cfg.WithDefaults()
	b := backoff.NewExponentialBackOff(
		backoff.WithInitialInterval(cfg.InitialInterval),
		backoff.WithMultiplier(2),
		backoff.WithMaxInterval(cfg.MaxInterval),
		backoff.WithRandomizationFactor(jitter),
		backoff.WithMaxElapsedTime(0), // MaxAge, checked against Postgres, decides when to stop
	)
	// Past 64 doublings every interval is MaxInterval anyway.
	n := min(max(attempt, 1), 64)
	var d time.Duration
	for range n {
		d = b.NextBackOff()
	}
	return d
}
