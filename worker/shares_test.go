package worker

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"testing"

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

	var gives []func() // a's events in flight, their reads hanging: half the lane
	for range 2 {
		give, err := w.eventShares.take("a")
		if err != nil {
			t.Fatal(err)
		}
		gives = append(gives, give)
	}
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

func TestSharesAreHalfALane(t *testing.T) {
	for n, want := range map[int]int{1: 1, 2: 1, 3: 2, 10: 5} {
		s := newShares(n)
		for i := range want {
			if _, err := s.take("p"); err != nil {
				t.Fatalf("lane of %d: take %d: %v", n, i+1, err)
			}
		}
		if _, err := s.take("p"); !errors.Is(err, errShareFull) {
			t.Fatalf("lane of %d: a provider took more than %d slots", n, want)
		}
		if _, err := s.take("q"); err != nil {
			t.Fatalf("lane of %d: another provider refused: %v", n, err)
		}
	}
}
