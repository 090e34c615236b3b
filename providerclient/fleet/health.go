package fleet

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/pixgate/pixgate/providerclient"
)

// window counts a provider's successes and failures over a sliding window
// of ten buckets.
type window struct {
	span    time.Duration // of one bucket
	buckets [10]bucket
}

type bucket struct {
	start     int64 // the bucket's index in time (unix nanoseconds / span)
	ok, fails int
}

func (w *window) add(now time.Time, ok bool) {
	idx := now.UnixNano() / int64(w.span)
	b := &w.buckets[idx%int64(len(w.buckets))]
	if b.start != idx {
		b.start, b.ok, b.fails = idx, 0, 0
	}
	if ok {
		b.ok++
	} else {
		b.fails++
	}
}

// counts sums the buckets still inside the window at now.
func (w *window) counts(now time.Time) (ok, fails int) {
	idx := now.UnixNano() / int64(w.span)
	for _, b := range w.buckets {
		if idx-b.start < int64(len(w.buckets)) {
			ok, fails = ok+b.ok, fails+b.fails
		}
	}
	return ok, fails
}

func (w *window) reset() { w.buckets = [10]bucket{} }

// health is a provider's score: its success rate over the window and
// whether it is eliminated from routes.
type health struct {
	mu         sync.Mutex
	win        window
	eliminated bool
	nextProbe  time.Time
	probing    bool
}

// counted says whether a call's outcome says anything of the provider's
// health, and whether it was a success. A rejection is an answer (the
// provider is up); an open breaker, a full bulkhead and a call its caller
// gave up on say nothing of the provider, but for a call the fleet itself
// gave up on because the provider had not answered in time (errUnanswered:
// a read past its timeout, a create past its attempt's deadline), which
// is the provider's failure.
func counted(ctx context.Context, err error) (count, ok bool) {
	switch {
	case err == nil, errors.Is(err, providerclient.ErrRejected):
		return true, true
	case errors.Is(err, providerclient.ErrBreakerOpen), errors.Is(err, ErrBulkheadFull):
		return false, false
	case ctx.Err() != nil:
		return errors.Is(context.Cause(ctx), errUnanswered), false
	}
	return true, false
}

// record counts one call's outcome and eliminates the provider when its
// success rate falls below the threshold; it reports an elimination.
func (m *member) record(ctx context.Context, err error) {
	count, ok := counted(ctx, err)
	if !count {
		return
	}
	now := m.f.opts.Now()
	h := &m.health
	h.mu.Lock()
	h.win.add(now, ok)
	good, bad := h.win.counts(now)
	eliminate := !h.eliminated && !ok && good+bad >= m.f.opts.HealthMinCalls &&
		float64(good) < m.f.opts.HealthThreshold*float64(good+bad)
	if eliminate {
		h.eliminated, h.nextProbe = true, now.Add(m.f.opts.ProbeInterval)
	}
	h.mu.Unlock()
	m.f.metrics.successRatio(m.name, good, bad)
	if eliminate {
		m.f.metrics.eliminated(m.name, true)
		m.f.opts.Log.WarnContext(ctx, "provider eliminated from routes", "provider", m.name, "successes", good, "failures", bad)
	}
}

// isEliminated says whether the provider is out of routes; when a probe is
// due it claims it (so one caller probes).
func (m *member) isEliminated() (out, probeDue bool) {
	h := &m.health
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.eliminated {
		return false, false
	}
	if !h.probing && !m.f.opts.Now().Before(h.nextProbe) {
		h.probing = true
		return true, true
	}
	return true, false
}

// probe reads the provider's balance, without retries: success puts it
// back in routes with a clean window, failure keeps it out until the next
// probe.
func (m *member) probe(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, m.f.opts.ReadTimeout)
	defer cancel()
	_, err := m.hasty.Balance(ctx)
	back := err == nil || errors.Is(err, providerclient.ErrRejected)
	h := &m.health
	h.mu.Lock()
	h.probing = false
	if back {
		h.eliminated = false
		h.win.reset()
	} else {
		h.nextProbe = m.f.opts.Now().Add(m.f.opts.ProbeInterval)
	}
	h.mu.Unlock()
	if back {
		m.f.metrics.eliminated(m.name, false)
		m.f.opts.Log.InfoContext(ctx, "provider back in routes after a probe", "provider", m.name)
	}
}
