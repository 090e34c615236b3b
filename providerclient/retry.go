package providerclient

import (
	"context"
	"errors"
	"net/http"
	"syscall"
	"time"

	"github.com/cenkalti/backoff/v4"
)

// retrier repeats transient failures; every call PixGate makes is safe to
// repeat, because each create carries PixGate's own id.
type retrier struct {
	next        Connector
	maxElapsed  time.Duration
	readTimeout time.Duration
}

// WithRetry wraps next with short exponential retries (backoff/v4: 50 ms
// doubling up to 500 ms, jittered, for at most cfg.RetryMaxElapsed) of
// transient failures: ErrUnavailable and ErrUnknownOutcome, never a
// rejection, never ErrBreakerOpen, never a refused connection (nothing
// listens: the provider is down, and the caller is better off answering or
// failing over at once than after two seconds), never after the caller's
// context ended. Creates are retried only with PixGate's id set, which the
// provider deduplicates; reads and the balance always. A Read, retries
// included, is bounded by cfg.ReadTimeout.
func WithRetry(next Connector, cfg Config) Connector {
	cfg = cfg.WithDefaults()
	return &retrier{next: next, maxElapsed: cfg.RetryMaxElapsed, readTimeout: cfg.ReadTimeout}
}

func (r *retrier) newBackOff() backoff.BackOff {
	if r.maxElapsed < 0 {
		return &backoff.StopBackOff{}
	}
	return backoff.NewExponentialBackOff(
		backoff.WithInitialInterval(50*time.Millisecond),
		backoff.WithMultiplier(2),
		backoff.WithMaxInterval(500*time.Millisecond),
		backoff.WithRandomizationFactor(0.5),
		backoff.WithMaxElapsedTime(r.maxElapsed),
	)
}

// repeat calls call until it succeeds, fails for good, or the backoff or
// the context runs out; it returns the last typed error, never a bare
// context error. An unknown outcome is never forgotten: once an attempt's
// outcome is unknown, a later attempt that fails without sending anything
// (unavailable, breaker open) does not make the call's outcome known, so
// the unknown outcome is what is returned. Only an answer (a success or a
// rejection) settles it. Likewise an attempt the provider answered (a 5xx:
// the request reached it) is not forgotten for a later one that reached
// nothing (a refused connection), which would say nothing was ever sent.
func repeat[T any](ctx context.Context, r *retrier, safe bool, call func() (*T, error)) (*T, error) {
	b := r.newBackOff()
	var unknown, reached error
	for {
		res, err := call()
		switch {
		case err == nil:
		case errors.Is(err, ErrUnknownOutcome):
			unknown = err
		case answered(err):
			reached = err
		}
		if err == nil || !safe || !transient(err) || refused(err) || ctx.Err() != nil {
			return res, keepUnknown(err, unknown, reached)
		}
		wait := b.NextBackOff()
		if wait == backoff.Stop {
			return res, keepUnknown(err, unknown, reached)
		}
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return res, keepUnknown(err, unknown, reached)
		}
	}
}

// keepUnknown is err, or the earlier unknown outcome when err only says
// that the last attempt sent nothing or was unavailable, or the earlier
// answered attempt when err says the last one reached nothing.
func keepUnknown(err, unknown, reached error) error {
	switch {
	case unknown != nil && errors.Is(err, ErrUnavailable):
		return unknown
	case reached != nil && errors.Is(err, ErrUnavailable) && !answered(err):
		return reached
	}
	return err
}

// answered says the provider answered the attempt with a status
// (anywhere in err's tree).
func answered(err error) bool {
	if pe, ok := err.(*Error); ok && pe.StatusCode != 0 {
		return true
	}
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		return answered(u.Unwrap())
	case interface{ Unwrap() []error }:
		for _, e := range u.Unwrap() {
			if answered(e) {
				return true
			}
		}
	}
	return false
}

// refused says the provider refused the connection: nothing listens.
func refused(err error) bool { return errors.Is(err, syscall.ECONNREFUSED) }

func (r *retrier) Name() string               { return r.next.Name() }
func (r *retrier) Kind() string               { return r.next.Kind() }
func (r *retrier) Capabilities() Capabilities { return r.next.Capabilities() }

func (r *retrier) CreateCharge(ctx context.Context, req ChargeRequest) (*Charge, error) {
	return repeat(ctx, r, req.ID != "", func() (*Charge, error) { return r.next.CreateCharge(ctx, req) })
}

func (r *retrier) SendPix(ctx context.Context, req PayoutRequest) (*Payout, error) {
	return repeat(ctx, r, req.ID != "", func() (*Payout, error) { return r.next.SendPix(ctx, req) })
}

func (r *retrier) Refund(ctx context.Context, req RefundRequest) (*Refund, error) {
	return repeat(ctx, r, req.ID != "", func() (*Refund, error) { return r.next.Refund(ctx, req) })
}

func (r *retrier) Read(ctx context.Context, ref Ref) (*Transaction, error) {
	ctx, cancel := context.WithTimeout(ctx, r.readTimeout)
	defer cancel()
	return repeat(ctx, r, true, func() (*Transaction, error) { return r.next.Read(ctx, ref) })
}

func (r *retrier) Balance(ctx context.Context) (*Balance, error) {
	return repeat(ctx, r, true, func() (*Balance, error) { return r.next.Balance(ctx) })
}

func (r *retrier) ParseNotification(h http.Header, body []byte) ([]Event, error) {
	return r.next.ParseNotification(h, body)
}

func (r *retrier) ReadInfraction(ctx context.Context, ref InfractionRef) (*Infraction, error) {
	return repeat(ctx, r, true, func() (*Infraction, error) { return r.next.ReadInfraction(ctx, ref) })
}

func (r *retrier) ListInfractions(ctx context.Context, since time.Time) ([]Infraction, error) {
	list, err := repeat(ctx, r, true, func() (*[]Infraction, error) {
		l, err := r.next.ListInfractions(ctx, since)
		return &l, err
	})
	if list == nil {
		return nil, err
	}
	return *list, err
}

// DefendInfraction is not repeated: a defense sent twice may be refused
// the second time, or kept twice.
func (r *retrier) DefendInfraction(ctx context.Context, ref InfractionRef, text string) error {
	return r.next.DefendInfraction(ctx, ref, text)
}

func (r *retrier) LookupKey(ctx context.Context, keyType, key string) (*KeyHolder, error) {
	return repeat(ctx, r, true, func() (*KeyHolder, error) { return r.next.LookupKey(ctx, keyType, key) })
}

func (r *retrier) Statement(ctx context.Context, req StatementRequest) (*StatementPage, error) {
	return repeat(ctx, r, true, func() (*StatementPage, error) { return r.next.Statement(ctx, req) })
}
