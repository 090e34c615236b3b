package worker

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"math"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/providerclient/family"
	"github.com/pixgate/pixgate/providerclient/fleet"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/tasks"
)

// A provider's notifications hold at most its share of the events lane:
// with a's events holding all of it (their reads hanging), another of a's
// is deferred without reading or spending a retry, and b's paid charge is
// credited at once.
func TestASlowProvidersEventsLeaveTheLaneToOthers(t *testing.T) {
	st := newFakeStore()
	paid := func(p *fakeProvider, pix string) storage.Charge {
		c := newPendingCharge(pix)
		p.txns[pix] = &family.Transaction{TransactionType: contract.TypeReceivePix, Status: contract.StatusPaid,
			ExternalID: c.ID.String(), Amount: 2500}
		return c
	}
	a := &fakeProvider{txns: map[string]*family.Transaction{}}
	b := &fakeProvider{txns: map[string]*family.Transaction{}}
	ca, cb := paid(a, "pix-a"), paid(b, "pix-b")
	ca.Provider, cb.Provider = "a", "b"
	st.charges[ca.ID], st.charges[cb.ID] = ca, cb
	st.events[1] = storage.ProviderEvent{ID: 1, TransactionType: "charge", TransactionID: "pix-a", Status: "PAID", Provider: "a"}
	st.events[2] = storage.ProviderEvent{ID: 2, TransactionType: "charge", TransactionID: "pix-b", Status: "PAID", Provider: "b"}
	fl, err := fleet.New(fleet.Options{},
		fleet.Member{Config: providerclient.Config{Name: "a", RetryMaxElapsed: -1}, Connector: member{name: "a", p: a}},
		fleet.Member{Config: providerclient.Config{Name: "b", RetryMaxElapsed: -1}, Connector: member{name: "b", p: b}})
	if err != nil {
		t.Fatal(err)
	}
	w := newWorker(Config{Lanes: LaneConfig{Events: 4}}, st, fl, &fakeQueue{}, slog.New(slog.NewTextHandler(io.Discard, nil)), nil)
	apply := func(id int64) error {
		task, _ := tasks.ProviderEventMessage(tasks.ProviderEvent{EventID: id}, 0).Task()
		return w.applyProviderEvent(context.Background(), task)
	}

	start := time.Now()
	w.eventShares.now = func() time.Time { return start }
	var gives []func() // a's events in flight, their reads hanging: half the lane
	for range 2 {
		give, err := w.eventShares.take("a")
		if err != nil {
			t.Fatal(err)
		}
		gives = append(gives, give)
	}
	w.eventShares.now = func() time.Time { return start.Add(2 * shareSlow) }
	if err := apply(1); !errors.Is(err, errShareFull) || isFailure(err) {
		t.Fatalf("a's event over its share: %v, want deferred without spending a retry", err)
	}
	if a.consulted != 0 || st.charges[ca.ID].Status != storage.ChargePending {
		t.Fatalf("a's deferred event read a %d times, charge %s", a.consulted, st.charges[ca.ID].Status)
	}
	if err := apply(2); err != nil || st.charges[cb.ID].Status != storage.ChargePaid {
		t.Fatalf("b's event while a's hold their share: %v, charge %s; want it credited", err, st.charges[cb.ID].Status)
	}
	for _, give := range gives {
		give()
	}
	if err := apply(1); err != nil || st.charges[ca.ID].Status != storage.ChargePaid {
		t.Fatalf("a's event once its share is free: %v, charge %s; want it credited", err, st.charges[ca.ID].Status)
	}
	if d := retryDelay(0)(0, errShareFull, nil); d < shareRetry || d > 2*shareRetry {
		t.Fatalf("a deferred task comes back after %v, want about %v", d, shareRetry)
	}
}

// A slow provider (a slot held past shareSlow) takes half a lane; a fast
// one the whole lane.
func TestSharesAreHalfALaneForASlowProvider(t *testing.T) {
	for n, want := range map[int]int{1: 1, 2: 1, 3: 2, 10: 5} {
		s := newShares(n)
		start := time.Now()
		s.now = func() time.Time { return start }
		gives := map[string][]func(){}
		take := func(p string) error {
			give, err := s.take(p)
			if err == nil {
				gives[p] = append(gives[p], give)
			}
			return err
		}
		for i := range n {
			if err := take("fast"); err != nil {
				t.Fatalf("lane of %d: a fast provider's take %d: %v", n, i+1, err)
			}
		}
		for _, give := range gives["fast"] {
			give()
		}
		for i := range want {
			if err := take("p"); err != nil {
				t.Fatalf("lane of %d: take %d: %v", n, i+1, err)
			}
		}
		s.now = func() time.Time { return start.Add(shareSlow + time.Millisecond) }
		if err := take("p"); !errors.Is(err, errShareFull) {
			t.Fatalf("lane of %d: a slow provider took more than %d slots", n, want)
		}
		if err := take("q"); err != nil {
			t.Fatalf("lane of %d: another provider refused: %v", n, err)
		}
		gives["p"][0]()
		if err := take("p"); err != nil {
			t.Fatalf("lane of %d: a slot given back is not taken again: %v", n, err)
		}
	}
}

// The events lane is wide enough that a provider half of whose reads hang
// keeps up within its share. In make chaos's slow-provider-50 each worker
// process took about 9 of the slow provider's notifications a second, half
// of them holding their slot for the read timeout: some 14 at once. With
// a lane of 10 its share was 5: its notifications queued (its paid charges
// credited p50 9 s after their payment) and went round the queue, deferred,
// ahead of the healthy provider's (credited p50 1.4 s, p99 5.7 s after).
func TestTheEventsLaneHoldsASlowProvidersHangingReads(t *testing.T) {
	lane := LaneConfig{}.withDefaults().Events
	hanging := int(math.Ceil(9 * 0.5 * providerclient.DefaultReadTimeout.Seconds()))
	s := newShares(lane)
	start := time.Now()
	s.now = func() time.Time { return start }
	for i := range hanging {
		if _, err := s.take("slow"); err != nil {
			t.Fatalf("the slow provider's notification %d: %v", i+1, err)
		}
	}
	s.now = func() time.Time { return start.Add(shareSlow + time.Millisecond) }
	if _, err := s.take("slow"); err != nil {
		t.Fatalf("a lane of %d: with %d of the slow provider's reads hanging, its next notification is deferred", lane, hanging)
	}
	// What is left is at least a lane of old for the healthy provider.
	for i := range 10 {
		if _, err := s.take("healthy"); err != nil {
			t.Fatalf("the healthy provider's notification %d: %v", i+1, err)
		}
	}
	if lane < hanging+1+10 {
		t.Fatalf("a lane of %d holds %d hanging reads, one more, and 10 of the healthy provider's only by going beyond it", lane, hanging)
	}
}
