package fleet

import (
	"cmp"
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/pixgate/pixgate/providerclient"
)

// hanging is a provider whose calls hang, as one that lost their answers:
// a read or create whose number (from 1) is in hang waits for its context
// to end, and then fails as the connectors fail a call cut short (an
// unknown outcome carrying the context's error). A read whose number is in
// gate waits for its channel to close, then answers. Every other call
// answers as the fake does.
type hanging struct {
	*fake
	hangReads, hangCreates map[int]bool
	gate                   map[int]chan struct{}
	// started is told the number of every read as it starts.
	started chan int

	mu                   sync.Mutex
	reads, creates       int
	inFlight, mostFlight int
	cancelled            int // calls that ended because their context was cancelled
}

func newHanging(name string) *hanging {
	return &hanging{fake: newFake(name), hangReads: map[int]bool{}, hangCreates: map[int]bool{}, gate: map[int]chan struct{}{}}
}

func (h *hanging) enter(creates bool) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.inFlight++
	h.mostFlight = max(h.mostFlight, h.inFlight)
	if creates {
		h.creates++
		return h.creates
	}
	h.reads++
	return h.reads
}

func (h *hanging) leave(ctx context.Context) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.inFlight--
	if errors.Is(ctx.Err(), context.Canceled) {
		h.cancelled++
	}
}

func (h *hanging) stats() (calls, most, cancelled int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.reads + h.creates, h.mostFlight, h.cancelled
}

func (h *hanging) counts(op string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	if op == "create" {
		return h.creates
	}
	return h.reads
}

func cutShort(op string, ctx context.Context) error {
	return &providerclient.Error{Op: op, Kind: providerclient.ErrUnknownOutcome, Err: ctx.Err()}
}

func (h *hanging) Read(ctx context.Context, ref providerclient.Ref) (*providerclient.Transaction, error) {
	n := h.enter(false)
	if h.started != nil {
		h.started <- n
	}
	h.mu.Lock()
	gate, hang := h.gate[n], h.hangReads[n]
	h.mu.Unlock()
	switch {
	case hang:
		<-ctx.Done()
		h.leave(ctx)
		return nil, cutShort(providerclient.OpRead, ctx)
	case gate != nil:
		select {
		case <-gate:
		case <-ctx.Done():
			h.leave(ctx)
			return nil, cutShort(providerclient.OpRead, ctx)
		}
	}
	h.leave(ctx)
	tx, err := h.fake.Read(ctx, ref)
	if tx != nil {
		tx.ProviderID = "read-" + string(rune('0'+n))
	}
	return tx, err
}

func (h *hanging) CreateCharge(ctx context.Context, req providerclient.ChargeRequest) (*providerclient.Charge, error) {
	n := h.enter(true)
	if h.hangCreates[n] {
		<-ctx.Done()
		h.leave(ctx)
		return nil, cutShort(providerclient.OpCharge, ctx)
	}
	h.leave(ctx)
	return h.fake.CreateCharge(ctx, req)
}

// hedgeFleet is a fleet of hs whose breakers open on the first transient
// failure they count, so that a breaker still closed proves it counted
// none.
func hedgeFleet(t *testing.T, opts Options, readTimeout time.Duration, hs ...*hanging) *Fleet {
	t.Helper()
	var members []Member
	for _, h := range hs {
		cfg := providerclient.Config{Name: h.name, RetryMaxElapsed: -1, ReadTimeout: readTimeout,
			BreakerFailures: 1, BreakerFailureRatio: 0.01, BreakerOpenTimeout: time.Hour}
		members = append(members, Member{Config: cfg, Connector: h})
	}
	if opts.HedgeAfter == 0 {
		opts.HedgeAfter = time.Millisecond
	}
	fl, err := New(opts, members...)
	if err != nil {
		t.Fatal(err)
	}
	return fl
}

func healthCounts(fl *Fleet, name string) (ok, fails int) {
	m := fl.members[name]
	m.health.mu.Lock()
	defer m.health.mu.Unlock()
	return m.health.win.counts(fl.opts.Now())
}

// The first read hangs: a hedge answers it, the hung one is cancelled, and
// neither the breaker nor the health score counts it.
func TestHedgedReadAnswersWhenTheFirstHangs(t *testing.T) {
	a := newHanging("a")
	hangAllBut(a, 2)
	fl := hedgeFleet(t, Options{}, time.Hour, a)
	p, _ := fl.Provider("a")
	tx, err := p.Read(context.Background(), providerclient.Ref{Kind: providerclient.KindCharge, ID: "c1", ProviderID: "p1"})
	if err != nil || tx == nil || tx.ProviderID != "read-2" {
		t.Fatalf("read = %+v, %v; want the hedge's answer", tx, err)
	}
	waitFor(t, func() bool { calls, _, c := a.stats(); return c == calls-1 }, "the hung reads cancelled")
	if _, most, _ := a.stats(); most > 3 {
		t.Errorf("%d reads in flight at once, want at most 3", most)
	}
	if st := providerclient.BreakerState(fl.members["a"].breaker, providerclient.LaneRead); st != "closed" {
		t.Errorf("read breaker %s: the cancelled read was counted as a failure", st)
	}
	if ok, fails := healthCounts(fl, "a"); ok != 1 || fails != 0 {
		t.Errorf("health counted %d successes, %d failures; want 1 and 0", ok, fails)
	}
}

// hangAllBut makes every read of h hang but read n.
func hangAllBut(h *hanging, n int) {
	for i := 1; i < 1000; i++ {
		h.hangReads[i] = i != n
	}
}

// A provider that is slow rather than hung: its first read answers after
// several hedges were sent and replaced, and its answer is the one taken.
// Never more than HedgeAttempts reads are in flight.
func TestHedgedReadKeepsTheFirstAttempt(t *testing.T) {
	a := newHanging("a")
	a.gate[1] = make(chan struct{})
	for n := 2; n < 100; n++ {
		a.hangReads[n] = true
	}
	a.started = make(chan int, 100)
	fl := hedgeFleet(t, Options{HedgeAttempts: 3}, time.Hour, a)
	p, _ := fl.Provider("a")
	go func() {
		for n := range a.started {
			if n == 6 { // two hedges replaced by fresh ones
				close(a.gate[1])
				return
			}
		}
	}()
	tx, err := p.Read(context.Background(), providerclient.Ref{Kind: providerclient.KindCharge, ID: "c1", ProviderID: "p1"})
	if err != nil || tx == nil || tx.ProviderID != "read-1" {
		t.Fatalf("read = %+v, %v; want the first attempt's answer", tx, err)
	}
	waitFor(t, func() bool { calls, _, c := a.stats(); return c == calls-1 }, "every hedge cancelled")
	if _, most, _ := a.stats(); most > 3 {
		t.Errorf("%d reads in flight at once, want at most 3", most)
	}
	if st := providerclient.BreakerState(fl.members["a"].breaker, providerclient.LaneRead); st != "closed" {
		t.Errorf("read breaker %s: cancelled hedges were counted as failures", st)
	}
}

// What ends a read early, and what does not launch a hedge.
func TestHedgedReadOutcomes(t *testing.T) {
	for _, tc := range []struct {
		name    string
		hang    bool // every read but the second hangs
		reads   []error
		wantErr error // nil: an answer
	}{
		{name: "an answer at once"},
		{name: "a 503 ends the read at once (the retries are for it)", reads: []error{err503}, wantErr: providerclient.ErrUnavailable},
		{name: "a rejection ends the read at once", reads: []error{errRejected}, wantErr: providerclient.ErrRejected},
		{name: "the first hangs, the hedge's not-found wins", hang: true, reads: []error{errNotFound}, wantErr: providerclient.ErrNotFound},
		{name: "the first hangs, the hedge's proof of absence wins", hang: true, reads: []error{errAbsent}, wantErr: providerclient.ErrProvedAbsent},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := newHanging("a")
			opts := Options{HedgeAfter: time.Hour} // a hedge would never come
			if tc.hang {
				hangAllBut(a, 2)
				opts.HedgeAfter = time.Millisecond
			}
			a.fake.reads = tc.reads
			fl := hedgeFleet(t, opts, time.Hour, a)
			p, _ := fl.Provider("a")
			_, err := p.Read(context.Background(), providerclient.Ref{Kind: providerclient.KindCharge, ID: "c1", ProviderID: "p1"})
			if (tc.wantErr == nil) != (err == nil) || (tc.wantErr != nil && !errors.Is(err, tc.wantErr)) {
				t.Fatalf("err = %v, want %v", err, tc.wantErr)
			}
			calls, _, _ := a.stats()
			if !tc.hang && calls != 1 {
				t.Errorf("%d reads, want 1", calls)
			}
			if tc.hang && calls < 2 {
				t.Errorf("%d reads, want the first and a hedge", calls)
			}
		})
	}
}

// Every attempt hangs: the read ends at its timeout as an unknown outcome,
// with at most HedgeAttempts in flight, and counts as one failure of the
// provider, not one per attempt: the hedges still in flight are cancelled.
func TestHedgedReadUnansweredCountsOnce(t *testing.T) {
	for _, failures := range []uint32{1, 2} {
		a := newHanging("a")
		hangAllBut(a, 0)
		cfg := providerclient.Config{Name: "a", RetryMaxElapsed: -1, ReadTimeout: 50 * time.Millisecond,
			BreakerFailures: failures, BreakerFailureRatio: 0.01, BreakerOpenTimeout: time.Hour}
		fl, err := New(Options{HedgeAfter: time.Millisecond, HedgeAttempts: 3}, Member{Config: cfg, Connector: a})
		if err != nil {
			t.Fatal(err)
		}
		p, _ := fl.Provider("a")
		_, err = p.Read(context.Background(), providerclient.Ref{Kind: providerclient.KindCharge, ID: "c1", ProviderID: "p1"})
		if !errors.Is(err, providerclient.ErrUnknownOutcome) {
			t.Fatalf("err = %v, want an unknown outcome", err)
		}
		calls, most, cancelled := a.stats()
		if most > 3 || calls < 2 || cancelled != calls-1 {
			t.Errorf("%d reads, %d in flight at once, %d cancelled; want at most 3 at once, every hedge cancelled", calls, most, cancelled)
		}
		want := map[uint32]string{1: "open", 2: "closed"}[failures]
		if st := providerclient.BreakerState(fl.members["a"].breaker, providerclient.LaneRead); st != want {
			t.Errorf("breaker opening at %d failures is %s after one unanswered read, want %s", failures, st, want)
		}
		if ok, fails := healthCounts(fl, "a"); ok != 0 || fails != 1 {
			t.Errorf("health counted %d successes, %d failures; want 0 and 1", ok, fails)
		}
	}
}

// waitFor polls cond until it holds (the test's own deadline bounds it).
func waitFor(t *testing.T, cond func() bool, what string) {
	t.Helper()
	for start := time.Now(); !cond(); {
		if time.Since(start) > time.Minute {
			t.Errorf("waited a minute for %s", what)
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// Every hedge sent is counted, by provider and lane; an answered first
// attempt sends none.
func TestHedgesCounted(t *testing.T) {
	reg := prometheus.NewRegistry()
	a, b := newHanging("a"), newHanging("b")
	hangAllBut(a, 2)
	fl := hedgeFleet(t, Options{Metrics: reg}, time.Hour, a, b)
	for _, name := range []string{"a", "b"} {
		p, _ := fl.Provider(name)
		if _, err := p.Read(context.Background(), providerclient.Ref{Kind: providerclient.KindCharge, ID: "c1", ProviderID: "p1"}); err != nil {
			t.Fatalf("read at %s: %v", name, err)
		}
	}
	hedges := fl.metrics.hedges
	if n := counterValue(t, hedges.WithLabelValues("a", string(providerclient.LaneRead))); n < 1 {
		t.Errorf("a's hedged reads counted %v, want at least 1", n)
	}
	if n := counterValue(t, hedges.WithLabelValues("b", string(providerclient.LaneRead))); n != 0 {
		t.Errorf("b answered its first attempt, yet %v hedges were counted", n)
	}
}

func counterValue(t *testing.T, c prometheus.Counter) float64 {
	t.Helper()
	var m dto.Metric
	if err := c.Write(&m); err != nil {
		t.Fatal(err)
	}
	return m.GetCounter().GetValue()
}

// The hedge delay follows a provider's recent answers, above HedgeAfter,
// but never beyond a sixth of the read's timeout: a provider answering
// slowly still gets several attempts per read.
func TestHedgeDelayFollowsAnswersUpToACeiling(t *testing.T) {
	for _, tc := range []struct {
		name       string
		answers    time.Duration // every recent answer's latency; 0: none yet
		want       time.Duration
		hedgeAfter time.Duration
	}{
		{name: "no answers yet: HedgeAfter", answers: 0, want: 200 * time.Millisecond},
		{name: "fast answers: HedgeAfter", answers: 50 * time.Millisecond, want: 200 * time.Millisecond},
		{name: "answers of 300ms: 300ms", answers: 300 * time.Millisecond, want: 300 * time.Millisecond},
		{name: "answers of 2s: a sixth of the 3s timeout", answers: 2 * time.Second, want: 500 * time.Millisecond},
		{name: "HedgeAfter above the ceiling wins", answers: 2 * time.Second, hedgeAfter: time.Second, want: time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := newHanging("a")
			fl := hedgeFleet(t, Options{HedgeAfter: cmp.Or(tc.hedgeAfter, 200*time.Millisecond)}, 3*time.Second, a)
			m := fl.members["a"]
			for i := 0; tc.answers > 0 && i < 64; i++ {
				m.lat.add(tc.answers)
			}
			if d := m.hedgeDelay(); d != tc.want {
				t.Errorf("hedge delay %s, want %s", d, tc.want)
			}
		})
	}
}
