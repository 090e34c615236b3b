package payments

import (
	"context"
	"errors"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/fleet"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

// keyDirectory is one provider of a fleet, for key lookups: with lookup,
// every key is held by 52998224725 (or the lookup fails with err); without,
// it offers none. It counts the lookups asked of it.
type keyDirectory struct {
	providerclient.Connector
	name   string
	lookup bool

	mu      sync.Mutex
	err     error
	lookups int
}

func (d *keyDirectory) Name() string { return d.name }
func (d *keyDirectory) Kind() string { return "directory" }
func (d *keyDirectory) Capabilities() providerclient.Capabilities {
	return providerclient.Capabilities{KeyLookup: d.lookup}
}

func (d *keyDirectory) LookupKey(_ context.Context, keyType, key string) (*providerclient.KeyHolder, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.lookups++
	switch {
	case !d.lookup:
		return nil, &providerclient.Error{Op: providerclient.OpLookupKey, Kind: providerclient.ErrUnsupported}
	case d.err != nil:
		return nil, d.err
	}
	return &providerclient.KeyHolder{Key: key, KeyType: keyType, Name: d.name, Document: "52998224725"}, nil
}

func (d *keyDirectory) asked() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.lookups
}

// directories is a fleet of these providers, the first the default one
// (its breaker opens at its first failure), and a store whose every
// integrator's withdrawal route is route.
func directories(t *testing.T, route []string, ds ...*keyDirectory) (*Service, *fakeStore) {
	t.Helper()
	var members []fleet.Member
	for i, d := range ds {
		cfg := providerclient.Config{Name: d.name, RetryMaxElapsed: -1, BreakerOpenTimeout: time.Hour}
		if i == 0 {
			cfg.BreakerFailures, cfg.BreakerFailureRatio = 1, 1
		}
		members = append(members, fleet.Member{Config: cfg, Connector: d})
	}
	fl, err := fleet.New(fleet.Options{}, members...)
	if err != nil {
		t.Fatal(err)
	}
	store := newFakeStore()
	store.route = &storage.Route{Charges: []storage.RouteStep{{Provider: route[0]}}, Withdrawals: route}
	return New(Config{}, store, fl, nil), store
}

// A lookup goes to the first provider of the integrator's withdrawal route
// that offers lookups, never to one outside the route: a route without
// lookups is ErrUnsupported (and its same-holder check takes the no-lookup
// rule), however the default provider could answer.
func TestLookupFollowsTheWithdrawalRoute(t *testing.T) {
	for _, tc := range []struct {
		name  string
		route []string
		want  string // the provider that answers; "": ErrUnsupported
	}{
		{"a route without lookups", []string{"efi"}, ""},
		{"the route's first with lookups", []string{"efi", "b"}, "b"},
		{"the route's order", []string{"b", "default"}, "b"},
		{"the default route", []string{"default", "b"}, "default"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			def, efi, b := &keyDirectory{name: "default", lookup: true}, &keyDirectory{name: "efi"}, &keyDirectory{name: "b", lookup: true}
			s, store := directories(t, tc.route, def, efi, b)
			ctx := context.Background()
			h, err := s.LookupKey(ctx, 7, "EMAIL", "ana@example.com")
			switch {
			case tc.want == "" && !errors.Is(err, providerclient.ErrUnsupported):
				t.Fatalf("lookup: %+v, %v; want ErrUnsupported", h, err)
			case tc.want != "" && (err != nil || h.Name != tc.want):
				t.Fatalf("lookup: %+v, %v; want %s's answer", h, err, tc.want)
			}
			in := integrator(money.Fixed(0), money.Fixed(0))
			in.SameHolder = true
			_, _, err = s.CreateWithdrawal(ctx, in, WithdrawalRequest{Amount: 100,
				CreditParty: storage.CreditParty{Name: "Ana", KeyType: "EMAIL", Key: "ana@example.com", TaxID: "52998224725"}})
			if wantErr := tc.want == ""; wantErr != errors.Is(err, ErrNotSameHolder) || !wantErr && err != nil {
				t.Fatalf("same-holder withdrawal: %v (written %d)", err, len(store.withdrawals))
			}
			for _, d := range []*keyDirectory{def, efi, b} {
				want := 0
				if d.name == tc.want {
					want = 2
				}
				if n := d.asked(); n != want {
					t.Errorf("%s asked %d times, want %d", d.name, n, want)
				}
			}
		})
	}
}

// A lookup follows the fleet's order of the route: a provider whose
// breaker is open is asked after those in service, and one that cannot be
// reached answers for itself (503), the next one not asked in its place.
func TestLookupPassesOverAnOpenBreaker(t *testing.T) {
	def, b := &keyDirectory{name: "default", lookup: true}, &keyDirectory{name: "b", lookup: true}
	def.err = &providerclient.Error{Op: providerclient.OpLookupKey, Kind: providerclient.ErrUnavailable, Err: syscall.ECONNREFUSED}
	s, _ := directories(t, []string{"default", "b"}, def, b)
	ctx := context.Background()
	if _, err := s.LookupKey(ctx, 7, "EMAIL", "ana@example.com"); !errors.Is(err, providerclient.ErrUnavailable) || b.asked() != 0 {
		t.Fatalf("lookup at the unreachable default: %v, b asked %d times; want unavailable, b not asked", err, b.asked())
	}
	if h, err := s.LookupKey(ctx, 7, "EMAIL", "ana@example.com"); err != nil || h.Name != "b" || def.asked() != 1 {
		t.Fatalf("lookup with default's breaker open: %+v, %v, default asked %d times; want b's answer", h, err, def.asked())
	}
}
