package providerclient

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/sony/gobreaker/v2"
)

// breaker fails fast while the provider is down. Only transient failures
// count against it; a rejection proves the provider is up. Each lane has a
// breaker of its own.
type breaker struct {
	next Connector
	cbs  map[Lane]*gobreaker.CircuitBreaker[any]
}

// WithBreaker wraps next in circuit breakers of its own, one per Lane
// (named provider/lane), so that creates, sends, reads and statements are
// judged apart: sends timing out never refuse the reads that credit paid
// charges. Each one judges the provider by its failure ratio over a rolling
// window (cfg.BreakerWindow, ten buckets): it opens when at least
// cfg.BreakerFailures calls in the window failed transiently
// (ErrUnavailable, ErrUnknownOutcome) and they are at least
// cfg.BreakerFailureRatio of the window's calls. Open, it answers
// ErrBreakerOpen without calling next for cfg.BreakerOpenTimeout; then it
// lets cfg.BreakerProbes calls through: that many successes in a row close
// it, one transient failure opens it again. Rejections (4xx) count as
// successes and calls cancelled by their caller are not counted.
//
// A ratio rather than a run of consecutive failures: a provider failing
// half its calls produces runs of five failures every few seconds, and
// tripping on them turned a degraded provider into an outage.
func WithBreaker(next Connector, cfg Config) Connector {
	cfg = cfg.WithDefaults()
	b := &breaker{next: next, cbs: make(map[Lane]*gobreaker.CircuitBreaker[any], len(Lanes))}
	for _, lane := range Lanes {
		b.cbs[lane] = newBreaker(next.Name()+"/"+string(lane), lane, cfg)
	}
	return b
}

// newBreaker is the breaker of one lane.
func newBreaker(name string, lane Lane, cfg Config) *gobreaker.CircuitBreaker[any] {
	st := gobreaker.Settings{
		Name:         name,
		MaxRequests:  cfg.BreakerProbes,
		Interval:     cfg.BreakerWindow,
		BucketPeriod: max(cfg.BreakerWindow/10, time.Millisecond),
		Timeout:      cfg.BreakerOpenTimeout,
		ReadyToTrip:  tripRule(cfg.BreakerFailures, cfg.BreakerFailureRatio),
		IsSuccessful: func(err error) bool { return err == nil || !transient(err) },
		IsExcluded:   func(err error) bool { return errors.Is(err, context.Canceled) },
	}
	if f := cfg.OnBreakerStateChange; f != nil {
		st.OnStateChange = func(_ string, from, to gobreaker.State) { f(lane, from.String(), to.String()) }
	}
	return gobreaker.NewCircuitBreaker[any](st)
}

// tripRule opens the breaker once the window holds at least minFailures
// failures and they are at least ratio of its counted calls.
func tripRule(minFailures uint32, ratio float64) func(gobreaker.Counts) bool {
	return func(c gobreaker.Counts) bool {
		counted := c.TotalFailures + c.TotalSuccesses
		return c.TotalFailures >= minFailures && float64(c.TotalFailures) >= ratio*float64(counted)
	}
}

// BreakerState is the state of lane's breaker of those WithBreaker made:
// "closed", "half-open" or "open"; "" for any other connector. Asking moves
// an open breaker whose open interval has passed to half-open, as a call
// would.
func BreakerState(c Connector, lane Lane) string {
	if b, ok := c.(*breaker); ok {
		if cb := b.cbs[lane]; cb != nil {
			return cb.State().String()
		}
	}
	return ""
}

// guard runs call through the breaker of op's lane.
func guard[T any](b *breaker, op string, call func() (*T, error)) (*T, error) {
	v, err := b.cbs[LaneOf(op)].Execute(func() (any, error) { return call() })
	if errors.Is(err, gobreaker.ErrOpenState) || errors.Is(err, gobreaker.ErrTooManyRequests) {
		return nil, &Error{Op: op, Kind: ErrBreakerOpen}
	}
	res, _ := v.(*T)
	return res, err
}

func (b *breaker) Name() string               { return b.next.Name() }
func (b *breaker) Kind() string               { return b.next.Kind() }
func (b *breaker) Capabilities() Capabilities { return b.next.Capabilities() }

func (b *breaker) CreateCharge(ctx context.Context, req ChargeRequest) (*Charge, error) {
	return guard(b, OpCharge, func() (*Charge, error) { return b.next.CreateCharge(ctx, req) })
}

func (b *breaker) SendPix(ctx context.Context, req PayoutRequest) (*Payout, error) {
	return guard(b, OpPayout, func() (*Payout, error) { return b.next.SendPix(ctx, req) })
}

func (b *breaker) Refund(ctx context.Context, req RefundRequest) (*Refund, error) {
	return guard(b, OpRefund, func() (*Refund, error) { return b.next.Refund(ctx, req) })
}

func (b *breaker) Read(ctx context.Context, ref Ref) (*Transaction, error) {
	return guard(b, OpRead, func() (*Transaction, error) { return b.next.Read(ctx, ref) })
}

func (b *breaker) Balance(ctx context.Context) (*Balance, error) {
	return guard(b, OpBalance, func() (*Balance, error) { return b.next.Balance(ctx) })
}

func (b *breaker) ParseNotification(h http.Header, body []byte) ([]Event, error) {
	return b.next.ParseNotification(h, body)
}

func (b *breaker) ReadInfraction(ctx context.Context, ref InfractionRef) (*Infraction, error) {
	return guard(b, OpReadInfraction, func() (*Infraction, error) { return b.next.ReadInfraction(ctx, ref) })
}

func (b *breaker) ListInfractions(ctx context.Context, since time.Time) ([]Infraction, error) {
	list, err := guard(b, OpListInfractions, func() (*[]Infraction, error) {
		l, err := b.next.ListInfractions(ctx, since)
		return &l, err
	})
	if list == nil {
		return nil, err
	}
	return *list, err
}

func (b *breaker) DefendInfraction(ctx context.Context, ref InfractionRef, text string) error {
	_, err := guard(b, OpDefendInfraction, func() (*struct{}, error) { return nil, b.next.DefendInfraction(ctx, ref, text) })
	return err
}

func (b *breaker) LookupKey(ctx context.Context, keyType, key string) (*KeyHolder, error) {
	return guard(b, OpLookupKey, func() (*KeyHolder, error) { return b.next.LookupKey(ctx, keyType, key) })
}

func (b *breaker) Statement(ctx context.Context, req StatementRequest) (*StatementPage, error) {
	return guard(b, OpStatement, func() (*StatementPage, error) { return b.next.Statement(ctx, req) })
}
