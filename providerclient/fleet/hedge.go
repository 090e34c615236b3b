package fleet

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/pixgate/pixgate/providerclient"
)

// Hedged reads. A read (a consult of a charge or a transfer by its ids) is
// safe to repeat, so a read that has not answered after the hedge delay is
// not left to its timeout alone: another attempt is sent beside it, and the
// first answer wins. A provider that loses the answers of half its calls
// then still answers most reads within a few hedge delays, where one
// attempt would have waited its whole read timeout, and the notifications
// and reconciliation that credit paid charges do not wait behind it.
//
// The first attempt is kept until the read's timeout, so a provider that is
// merely slow is never starved: its answer still wins. The hedges beside it
// (at most Options.HedgeAttempts−1 at once) are each given a hedge life of
// their own and then replaced by a new one. The hedge delay follows the
// provider's own recent answers (a high percentile of its read latencies,
// never below Options.HedgeAfter), so that a provider slow all along is not
// sent a second read of everything. Only answers (a success, a rejection, a
// not-found) end a read early; an attempt that fails for want of the
// provider (unavailable, breaker open) does not launch another: the
// in-process retries are for those.
//
// Attempts cancelled because another answered, or replaced, count neither
// against the provider's breaker (a cancelled call is excluded) nor its
// health; attempts still unanswered when the read's timeout ends count as
// the failures they are. Sends and creates are never hedged.

// errUnanswered is the cause of a call the fleet ended because the
// provider had not answered in time: unlike a call its caller gave up on,
// it counts against the provider's health.
var errUnanswered = errors.New("the provider did not answer in time")

// errReadUnanswered is the cause of a hedged read's end when its timeout
// passed without an answer: its attempts count as the provider's failures.
var errReadUnanswered = fmt.Errorf("%w: no attempt of the read answered within its timeout", errUnanswered)

// errHedgeCancelled is the cause of an attempt cancelled because another
// answered or because its hedge life ended: it says nothing of the
// provider.
var errHedgeCancelled = errors.New("attempt cancelled: another answered, or a fresh one replaced it")

// latencies keeps the durations of a provider lane's most recent answered
// calls.
type latencies struct {
	mu   sync.Mutex
	ring [64]time.Duration
	n    int // calls recorded, all told
}

// minLatencySamples is how many answers a lane needs before its hedge delay
// follows them.
const minLatencySamples = 8

func (l *latencies) add(d time.Duration) {
	l.mu.Lock()
	l.ring[l.n%len(l.ring)] = d
	l.n++
	l.mu.Unlock()
}

// quantile is the q-quantile (0..1, nearest rank) of the recent answers, or
// false with fewer than minLatencySamples of them.
func (l *latencies) quantile(q float64) (time.Duration, bool) {
	l.mu.Lock()
	n := min(l.n, len(l.ring))
	if n < minLatencySamples {
		l.mu.Unlock()
		return 0, false
	}
	s := slices.Clone(l.ring[:n])
	l.mu.Unlock()
	slices.Sort(s)
	return s[min(n-1, int(q*float64(n)))], true
}

// hedgeDelay is how long a read at m waits for an answer before a hedge is
// sent beside it: the 95th percentile of m's recent read answers, never
// below Options.HedgeAfter, nor above a sixth of the read's timeout (unless
// HedgeAfter is).
//
// The ceiling keeps a read several attempts within its timeout. Without
// it, a provider losing half its answers while the machine was loaded
// answered its other reads in a second or more; the delay followed them,
// a read had two or three attempts within its 3 s, one in eight went
// unanswered, and its event task backed off for seconds more. A provider
// slow all along is sent up to a read and a half more per read (the first
// attempt and hedges replaced every delay and a half): the price of
// crediting its paid charges within seconds.
func (m *member) hedgeDelay() time.Duration {
	d := m.f.opts.HedgeAfter
	if q, ok := m.lat.quantile(0.95); ok && q > d {
		d = max(m.f.opts.HedgeAfter, min(q, m.readTimeout/hedgeCeiling))
	}
	return d
}

// hedgeCeiling: the hedge delay is at most the read's timeout over it.
const hedgeCeiling = 6

// hedgeLives is how long a hedge is kept, in hedge delays, before a fresh
// one replaces it.
const hedgeLives = 2

// attempt is one attempt's outcome.
type attempt[T any] struct {
	n       int // 0: the first attempt; hedges from 1
	res     *T
	err     error
	dropped bool // cancelled by the read itself
}

// hedged runs call, a read at g's provider, with hedges (see above); call
// must return when its context ends.
func hedged[T any](ctx context.Context, g *guarded, op string, call func(context.Context) (*T, error)) (*T, error) {
	m := g.m
	most := m.f.opts.HedgeAttempts
	if most <= 1 {
		return run(ctx, g, op, func() (*T, error) { return call(ctx) })
	}
	// The first attempt ends with the read's timeout, and counts as the
	// provider's failure then; the hedges are cancelled at that moment
	// instead, so that a read unanswered counts once, not once an attempt.
	caller := ctx
	ctx, stop := context.WithTimeoutCause(ctx, m.readTimeout, errReadUnanswered)
	defer stop()
	done := make(chan struct{})
	defer close(done)
	results := make(chan attempt[T])
	type live struct {
		cancel context.CancelCauseFunc
		since  time.Time
	}
	hedges := map[int]live{} // the hedges in flight, by number
	launch := func(n int) {
		parent := ctx
		if n > 0 {
			parent = caller
		}
		actx, cancel := context.WithCancelCause(parent)
		if n > 0 {
			hedges[n] = live{cancel, time.Now()}
			m.f.metrics.hedged(m.name, providerclient.LaneOf(op))
		}
		go func() {
			defer cancel(nil)
			start := time.Now()
			res, err := run(actx, g, op, func() (*T, error) { return call(actx) })
			if !transientOrCut(err) {
				m.lat.add(time.Since(start))
			}
			a := attempt[T]{n: n, res: res, err: err, dropped: errors.Is(context.Cause(actx), errHedgeCancelled)}
			select {
			case results <- a:
			case <-done:
			}
		}()
	}
	delay := m.hedgeDelay()
	tick := time.NewTicker(delay)
	defer tick.Stop()
	launch(0)
	// inFlight: the attempts not returned yet, cancelled ones included.
	inFlight, next, firstOut := 1, 1, false
	// more launches a hedge, but none once the first attempt failed or the
	// time is out.
	more := func() {
		if !firstOut && ctx.Err() == nil && inFlight < most {
			launch(next)
			next++
			inFlight++
		}
	}
	var last error
	timeout := ctx.Done()
	for {
		select {
		case <-timeout:
			timeout = nil
			for n, h := range hedges {
				h.cancel(errHedgeCancelled)
				delete(hedges, n)
			}
		case a := <-results:
			inFlight--
			delete(hedges, a.n)
			if a.dropped { // replaced: its successor goes once it is gone
				more()
			} else {
				if !transientOrCut(a.err) { // an answer: it wins
					for _, h := range hedges {
						h.cancel(errHedgeCancelled)
					}
					return a.res, a.err
				}
				if last == nil || a.n == 0 {
					last = a.err // the first attempt's failure says the most
				}
				firstOut = firstOut || a.n == 0
			}
			if inFlight == 0 {
				return nil, cmp.Or(last, a.err)
			}
		case <-tick.C:
			if firstOut {
				continue // the hedges left are all there is: none is replaced
			}
			for n, h := range hedges {
				if time.Since(h.since) >= hedgeLives*delay-delay/2 {
					h.cancel(errHedgeCancelled)
					delete(hedges, n)
				}
			}
			more()
		}
	}
}

// transientOrCut reports whether err is no answer of the provider: a
// transient failure (unavailable, unknown outcome, breaker open, bulkhead
// full) or a context's end.
func transientOrCut(err error) bool {
	return err != nil && (errors.Is(err, providerclient.ErrUnavailable) || errors.Is(err, providerclient.ErrUnknownOutcome) ||
		errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded))
}
