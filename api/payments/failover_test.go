package payments

import (
	"context"
	"errors"
	"slices"
	"sync"
	"syscall"
	"testing"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/fleet"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

// scriptedProvider is one provider of a fleet: each create, send and read
// takes the next answer of its script (the last repeats; nil succeeds).
type scriptedProvider struct {
	providerclient.Connector
	name string

	mu                    sync.Mutex
	creates, sends, reads []error
	nCreate, nSend, nRead int
	createdChargeID       []string
}

func (p *scriptedProvider) Name() string { return p.name }
func (p *scriptedProvider) Kind() string { return "scripted" }

func next(script []error, n int) error {
	if len(script) == 0 {
		return nil
	}
	return script[min(n, len(script)-1)]
}

func (p *scriptedProvider) CreateCharge(_ context.Context, req providerclient.ChargeRequest) (*providerclient.Charge, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	err := next(p.creates, p.nCreate)
	p.nCreate++
	if err != nil {
		return nil, err
	}
	p.createdChargeID = append(p.createdChargeID, req.ID)
	return &providerclient.Charge{ProviderID: p.name + "-" + req.ID, BRCode: "br-" + p.name, Status: providerclient.StatusPending}, nil
}

func (p *scriptedProvider) SendPix(_ context.Context, req providerclient.PayoutRequest) (*providerclient.Payout, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	err := next(p.sends, p.nSend)
	p.nSend++
	if err != nil {
		return nil, err
	}
	return &providerclient.Payout{ProviderID: p.name + "-" + req.ID, Status: providerclient.StatusProcessing}, nil
}

func (p *scriptedProvider) Read(_ context.Context, ref providerclient.Ref) (*providerclient.Transaction, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	err := next(p.reads, p.nRead)
	p.nRead++
	if err != nil {
		return nil, err
	}
	return &providerclient.Transaction{Kind: ref.Kind, ExternalID: ref.ID, Status: providerclient.StatusPending}, nil
}

func (p *scriptedProvider) counts() (creates, reads int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.nCreate, p.nRead
}

var (
	refused = &providerclient.Error{Op: providerclient.OpCharge, Kind: providerclient.ErrUnavailable,
		Err: &providerclient.Error{Kind: providerclient.ErrUnavailable, Err: syscall.ECONNREFUSED}}
	timedOut = &providerclient.Error{Op: providerclient.OpCharge, Kind: providerclient.ErrUnknownOutcome, Err: context.DeadlineExceeded}
	notThere = &providerclient.Error{Op: providerclient.OpRead, Kind: providerclient.ErrNotFound, StatusCode: 404, Absent: true}
)

// twoProviders is a fleet of a and b (a's breaker opens at its first
// failure when tripA) and a store whose route is a→b.
func twoProviders(t *testing.T, a, b *scriptedProvider, tripA bool) (*Service, *fakeStore) {
	t.Helper()
	cfgA := providerclient.Config{Name: "a", RetryMaxElapsed: -1}
	if tripA {
		cfgA.BreakerFailures, cfgA.BreakerFailureRatio = 1, 1
	}
	fl, err := fleet.New(fleet.Options{}, fleet.Member{Config: cfgA, Connector: a},
		fleet.Member{Config: providerclient.Config{Name: "b", RetryMaxElapsed: -1}, Connector: b})
	if err != nil {
		t.Fatal(err)
	}
	store := newFakeStore()
	store.route = &storage.Route{Charges: []storage.RouteStep{{Provider: "a"}, {Provider: "b"}}, Withdrawals: []string{"a", "b"}}
	return New(Config{}, store, fl, nil), store
}

// A charge on the route a→b: whatever a answers, the integrator sees one
// charge, recorded as the provider's that issued it.
func TestChargeFailsOverAlongTheRoute(t *testing.T) {
	for _, tc := range []struct {
		name                string
		aCreates, aReads    []error
		wantProvider        string
		wantACreates, wantB int
		wantAReads          int
	}{
		{name: "a issues it", wantProvider: "a", wantACreates: 1},
		{name: "a refuses the connection: b issues it", aCreates: []error{refused}, wantProvider: "b", wantACreates: 1, wantB: 1},
		{name: "a times out and has no record: read at a, then b", aCreates: []error{timedOut}, aReads: []error{notThere},
			wantProvider: "b", wantACreates: 1, wantAReads: 1, wantB: 1},
		{name: "a times out but has it: read at a, asked again at a", aCreates: []error{timedOut, nil}, aReads: []error{nil},
			wantProvider: "a", wantACreates: 2, wantAReads: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, b := &scriptedProvider{name: "a", creates: tc.aCreates, reads: tc.aReads}, &scriptedProvider{name: "b"}
			s, store := twoProviders(t, a, b, false)
			ctx, in := context.Background(), integrator(money.Fixed(0), money.Fixed(0))
			ch, created, err := s.CreateCharge(ctx, in, chargeRequest(1000))
			if err != nil || !created || !ch.Issued() || ch.Provider != tc.wantProvider || *ch.QRCode != "br-"+tc.wantProvider {
				t.Fatalf("charge %+v, created %v, err %v; want issued by %s", ch, created, err, tc.wantProvider)
			}
			if n := len(store.charges); n != 1 {
				t.Fatalf("%d charges recorded, want one", n)
			}
			aCreates, aReads := a.counts()
			bCreates, _ := b.counts()
			if aCreates != tc.wantACreates || aReads != tc.wantAReads || bCreates != tc.wantB {
				t.Fatalf("a creates %d, a reads %d, b creates %d; want %d, %d, %d", aCreates, aReads, bCreates, tc.wantACreates, tc.wantAReads, tc.wantB)
			}
		})
	}
}

// With a's breaker open, charges go to b without a being called.
func TestChargeSkipsAProviderWhoseBreakerIsOpen(t *testing.T) {
	a, b := &scriptedProvider{name: "a", creates: []error{refused}}, &scriptedProvider{name: "b"}
	s, _ := twoProviders(t, a, b, true)
	ctx, in := context.Background(), integrator(money.Fixed(0), money.Fixed(0))
	for i, ext := range []string{"order-1", "order-2", "order-3"} {
		r := chargeRequest(1000)
		r.ExternalID = ext
		ch, _, err := s.CreateCharge(ctx, in, r)
		if err != nil || ch.Provider != "b" {
			t.Fatalf("charge %d: %+v, %v; want issued by b", i, ch, err)
		}
	}
	if aCreates, _ := a.counts(); aCreates != 1 {
		t.Fatalf("a was called %d times; want once, before its breaker opened", aCreates)
	}
}

// A charge whose outcome at a could not be resolved stays with a: it fails,
// b is never asked, and the integrator's retry goes to a first, where the
// charge id makes it the same charge.
func TestChargeAmbiguousAtAStaysWithA(t *testing.T) {
	a := &scriptedProvider{name: "a", creates: []error{timedOut}, reads: []error{refused}}
	b := &scriptedProvider{name: "b"}
	s, store := twoProviders(t, a, b, false)
	ctx, in := context.Background(), integrator(money.Fixed(0), money.Fixed(0))
	_, _, err := s.CreateCharge(ctx, in, chargeRequest(1000))
	if !errors.Is(err, providerclient.ErrUnknownOutcome) {
		t.Fatalf("err = %v, want the unknown outcome", err)
	}
	failed, _ := store.Charge(ctx, in.ID, "order-1")
	if failed.Status != storage.ChargeFailed || failed.Provider != "a" {
		t.Fatalf("charge %s at %q; want FAILED, recorded at a", failed.Status, failed.Provider)
	}
	a.mu.Lock()
	a.creates = nil // a answers again
	a.mu.Unlock()
	ch, created, err := s.CreateCharge(ctx, in, chargeRequest(1000))
	if err != nil || created || ch.ID != failed.ID || ch.Provider != "a" || !ch.Issued() {
		t.Fatalf("retry: %+v, created %v, %v; want the same charge issued by a", ch, created, err)
	}
	if bCreates, _ := b.counts(); bCreates != 0 {
		t.Fatalf("b was asked %d times for a charge a may hold", bCreates)
	}
	if a.createdChargeID[0] != ch.ID.String() {
		t.Fatalf("a created %v, want the charge's own id", a.createdChargeID)
	}
}

// A retried charge goes first to the provider it records, ahead of any
// weighted pick; a new one follows the route's weights.
func TestChargeRoute(t *testing.T) {
	route := storage.Route{Charges: []storage.RouteStep{{Provider: "a", Weight: 80}, {Provider: "b", Weight: 20}}}
	fresh := chargeRoute(route, storage.Charge{Provider: "a"}, true)
	if len(fresh) != 2 || fresh[0] != (fleet.Choice{Provider: "a", Weight: 80}) || fresh[1] != (fleet.Choice{Provider: "b", Weight: 20}) {
		t.Fatalf("new charge's route %v, want the integrator's", fresh)
	}
	again := chargeRoute(route, storage.Charge{Provider: "b"}, false)
	if len(again) != 2 || again[0] != (fleet.Choice{Provider: "b"}) || again[1] != (fleet.Choice{Provider: "a"}) {
		t.Fatalf("retried charge's route %v, want b, then a, without weights", again)
	}
}

// A new withdrawal records the first provider of its integrator's
// withdrawal route in service: with a's breaker of sends open, b. a's
// charge creates failing open only the breaker of creates, which sends
// never consult.
func TestWithdrawalGoesToTheFirstProviderInService(t *testing.T) {
	a, b := &scriptedProvider{name: "a", creates: []error{refused}, sends: []error{refused}}, &scriptedProvider{name: "b"}
	s, store := twoProviders(t, a, b, true)
	ctx, in := context.Background(), integrator(money.Fixed(0), money.Fixed(50))
	cp := storage.CreditParty{Name: "Beltrano", KeyType: "EMAIL", Key: "b@example.com"}
	if _, _, err := s.CreateWithdrawal(ctx, in, WithdrawalRequest{Amount: 1000, CreditParty: cp}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.CreateCharge(ctx, in, chargeRequest(1000)); err != nil { // a refuses: its breaker of creates opens
		t.Fatal(err)
	}
	if _, _, err := s.CreateWithdrawal(ctx, in, WithdrawalRequest{Amount: 1000, CreditParty: cp}); err != nil {
		t.Fatal(err)
	}
	pa, _ := s.provider.(*fleet.Fleet).Provider("a")
	if _, err := pa.SendPix(ctx, providerclient.PayoutRequest{ID: "w"}); !errors.Is(err, syscall.ECONNREFUSED) { // its breaker of sends opens
		t.Fatalf("a's send: %v", err)
	}
	if _, _, err := s.CreateWithdrawal(ctx, in, WithdrawalRequest{Amount: 1000, CreditParty: cp}); err != nil {
		t.Fatal(err)
	}
	if got := []string{store.withdrawals[0].Provider, store.withdrawals[1].Provider, store.withdrawals[2].Provider}; len(store.withdrawals) != 3 ||
		!slices.Equal(got, []string{"a", "a", "b"}) {
		t.Fatalf("withdrawals recorded at %q; want a, a while only a's creates failed, then b once a's sends failed", got)
	}

	// A route whose every provider is disabled takes none, writing nothing.
	store.route = &storage.Route{}
	writes := store.writes
	if _, _, err := s.CreateWithdrawal(ctx, in, WithdrawalRequest{Amount: 1000, CreditParty: cp}); !errors.Is(err, providerclient.ErrUnavailable) || store.writes != writes {
		t.Fatalf("withdrawal on an empty route: %v, %d writes; want unavailable, none", err, store.writes-writes)
	}
	if _, _, err := s.CreateCharge(ctx, in, chargeRequest(1000)); !errors.Is(err, providerclient.ErrUnavailable) || store.writes != writes {
		t.Fatalf("charge on an empty route: %v, %d writes; want unavailable, none", err, store.writes-writes)
	}
}

// A charge that failed over from a and whose outcome at b is unknown is
// recorded at b, where its retry goes first.
func TestChargeAmbiguousAfterFailoverIsRecordedAtItsProvider(t *testing.T) {
	a := &scriptedProvider{name: "a", creates: []error{refused}}
	b := &scriptedProvider{name: "b", creates: []error{timedOut, nil}}
	s, store := twoProviders(t, a, b, false)
	ctx, in := context.Background(), integrator(money.Fixed(0), money.Fixed(0))
	if _, _, err := s.CreateCharge(ctx, in, chargeRequest(1000)); !errors.Is(err, providerclient.ErrUnknownOutcome) {
		t.Fatalf("err = %v, want the unknown outcome at b", err)
	}
	failed, _ := store.Charge(ctx, in.ID, "order-1")
	if failed.Status != storage.ChargeFailed || failed.Provider != "b" {
		t.Fatalf("charge %s at %q; want FAILED, recorded at b", failed.Status, failed.Provider)
	}
	ch, _, err := s.CreateCharge(ctx, in, chargeRequest(1000))
	if err != nil || ch.Provider != "b" {
		t.Fatalf("retry: %+v, %v; want issued by b", ch, err)
	}
	if aCreates, _ := a.counts(); aCreates != 1 {
		t.Fatalf("a asked %d times; the retry went to a before b", aCreates)
	}
}
