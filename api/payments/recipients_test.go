package payments

import (
	"context"
	"errors"
	"testing"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

// dirProvider is a provider with a DICT lookup (holders by key, err for
// every lookup when set) and, optionally, defenses.
type dirProvider struct {
	fakeProvider
	lookup   bool
	holders  map[string]providerclient.KeyHolder
	err      error
	defenses []string
	defErr   error
	lookups  int
}

func (p *dirProvider) Capabilities() providerclient.Capabilities {
	return providerclient.Capabilities{KeyLookup: p.lookup, InfractionDefense: true}
}

func (p *dirProvider) LookupKey(_ context.Context, _, key string) (*providerclient.KeyHolder, error) {
	p.lookups++
	if p.err != nil {
		return nil, p.err
	}
	h, ok := p.holders[key]
	if !ok {
		return nil, &providerclient.Error{Op: providerclient.OpLookupKey, Kind: providerclient.ErrNotFound}
	}
	return &h, nil
}

func (p *dirProvider) DefendInfraction(_ context.Context, ref providerclient.InfractionRef, text string) error {
	p.defenses = append(p.defenses, ref.ProviderID+": "+text)
	return p.defErr
}

// A same-holder integrator's withdrawal recipient is checked before
// anything is reserved: the key must exist, not be marked for fraud, and
// be creditParty.taxId's; without a lookup (or with the provider down),
// only a CPF or CNPJ key that is the taxId itself passes. Other
// integrators' recipients are not looked up at all: the provider refuses
// a missing or fraud-marked key when it sends.
func TestRecipientChecks(t *testing.T) {
	holders := map[string]providerclient.KeyHolder{
		"ana@example.com":    {Document: "52998224725"},
		"masked@example.com": {Document: "***.982.247-**"},
		"other@example.com":  {Document: "11144477735"},
		"fraud@example.com":  {Document: "52998224725", FraudMarked: true},
		"52998224725":        {Document: "52998224725"},
	}
	down := &providerclient.Error{Op: providerclient.OpLookupKey, Kind: providerclient.ErrUnavailable}
	tests := []struct {
		name         string
		lookup       bool
		err          error
		sameHolder   bool
		keyType, key string
		want         error // nil: allowed
	}{
		{"existing key", true, nil, false, "EMAIL", "other@example.com", nil},
		{"missing key, left to the provider", true, nil, false, "EMAIL", "nobody@example.com", nil},
		{"fraud-marked key, left to the provider", true, nil, false, "EMAIL", "fraud@example.com", nil},
		{"same holder, missing key", true, nil, true, "EMAIL", "nobody@example.com", ErrKeyNotFound},
		{"same holder, fraud-marked key", true, nil, true, "EMAIL", "fraud@example.com", ErrKeyFraudMarked},
		{"same holder, own key", true, nil, true, "EMAIL", "ana@example.com", nil},
		{"same holder, own key, masked", true, nil, true, "EMAIL", "masked@example.com", nil},
		{"same holder, another's key", true, nil, true, "EMAIL", "other@example.com", ErrNotSameHolder},
		{"no lookup", false, nil, false, "EMAIL", "nobody@example.com", nil},
		{"no lookup, same holder, own CPF key", false, nil, true, "CPF", "52998224725", nil},
		{"no lookup, same holder, e-mail key", false, nil, true, "EMAIL", "ana@example.com", ErrNotSameHolder},
		{"no lookup, same holder, another's CPF key", false, nil, true, "CPF", "11144477735", ErrNotSameHolder},
		{"provider down", true, down, false, "EMAIL", "nobody@example.com", nil},
		{"provider down, same holder, own CPF key", true, down, true, "CPF", "52998224725", nil},
		{"provider down, same holder, e-mail key", true, down, true, "EMAIL", "ana@example.com", providerclient.ErrUnavailable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			store := newFakeStore()
			p := &dirProvider{lookup: tt.lookup, holders: holders, err: tt.err}
			s := New(Config{}, store, p, nil)
			in := integrator(money.Fixed(0), money.Fixed(50))
			in.SameHolder = tt.sameHolder
			_, _, err := s.CreateWithdrawal(context.Background(), in, WithdrawalRequest{Amount: 1000,
				CreditParty: storage.CreditParty{Name: "Ana", KeyType: tt.keyType, Key: tt.key, TaxID: "52998224725"}})
			if tt.want == nil && err != nil || tt.want != nil && !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
			if wrote := len(store.withdrawals) > 0; wrote != (err == nil) {
				t.Fatalf("withdrawal written: %v, with err %v", wrote, err)
			}
			if !tt.sameHolder && p.lookups != 0 {
				t.Fatalf("%d provider lookups for an integrator without the same-holder rule", p.lookups)
			}
		})
	}
}

// A plain withdrawal create makes no provider round trip: the recipient is
// looked up only under the same-holder rule.
func TestPlainWithdrawalCreateLooksNothingUp(t *testing.T) {
	p := &dirProvider{lookup: true, holders: map[string]providerclient.KeyHolder{"ana@example.com": {Document: "52998224725"}}}
	store := newFakeStore()
	s := New(Config{}, store, p, nil)
	cp := storage.CreditParty{Name: "Ana", KeyType: "EMAIL", Key: "ana@example.com", TaxID: "52998224725"}
	if _, _, err := s.CreateWithdrawal(context.Background(), integrator(money.Fixed(0), money.Fixed(50)), WithdrawalRequest{Amount: 1000, CreditParty: cp}); err != nil {
		t.Fatal(err)
	}
	if p.lookups != 0 || len(store.withdrawals) != 1 {
		t.Fatalf("lookups %d, withdrawals %d; want 0 and 1", p.lookups, len(store.withdrawals))
	}
	in := integrator(money.Fixed(0), money.Fixed(50))
	in.SameHolder = true
	if _, _, err := s.CreateWithdrawal(context.Background(), in, WithdrawalRequest{Amount: 1000, CreditParty: cp}); err != nil || p.lookups != 1 {
		t.Fatalf("same holder: err %v, lookups %d; want one lookup", err, p.lookups)
	}
}

// medStore is the infractions' part of storage, in memory.
type medStore struct {
	*fakeStore
	inf       storage.Infraction
	forwarded bool
	dropped   bool
}

func (m *medStore) ListInfractions(context.Context, storage.ListParams) ([]storage.Infraction, bool, error) {
	return []storage.Infraction{m.inf}, false, nil
}
func (m *medStore) Infraction(context.Context, int64, uuid.UUID) (storage.Infraction, error) {
	return m.inf, nil
}
func (m *medStore) ChargeByID(context.Context, uuid.UUID) (storage.Charge, error) {
	return storage.Charge{}, storage.ErrNotFound
}
func (m *medStore) ClaimDefense(_ context.Context, _ int64, _ uuid.UUID, text string) (storage.Infraction, error) {
	if m.inf.Defense != nil {
		return m.inf, storage.ErrDefenseExists
	}
	m.inf.Defense = &text
	return m.inf, nil
}
func (m *medStore) ForwardedDefense(context.Context, uuid.UUID) (storage.Infraction, error) {
	m.inf.DefenseForwarded, m.forwarded = true, true
	return m.inf, nil
}
func (m *medStore) DropDefense(context.Context, uuid.UUID) error {
	m.inf.Defense, m.dropped = nil, true
	return nil
}

// A defense reaches a provider that takes defenses, once; one it refuses
// is dropped, so that it can be sent again.
func TestDefenseIsForwardedOnce(t *testing.T) {
	st := &medStore{fakeStore: newFakeStore(), inf: storage.Infraction{ID: uuid.New(), ProviderID: "inf-1", Status: storage.InfractionOpen}}
	p := &dirProvider{}
	s := New(Config{}, st, p, nil)
	inf, err := s.DefendInfraction(context.Background(), 1, st.inf.ID, "autorizado")
	if err != nil || !inf.DefenseForwarded || len(p.defenses) != 1 || p.defenses[0] != "inf-1: autorizado" {
		t.Fatalf("defense: %+v, %v; provider got %v", inf, err, p.defenses)
	}
	if _, err := s.DefendInfraction(context.Background(), 1, st.inf.ID, "de novo"); !errors.Is(err, storage.ErrDefenseExists) || len(p.defenses) != 1 {
		t.Fatalf("second defense: %v; provider got %v", err, p.defenses)
	}

	st = &medStore{fakeStore: newFakeStore(), inf: storage.Infraction{ID: uuid.New(), ProviderID: "inf-2", Status: storage.InfractionOpen}}
	p = &dirProvider{defErr: &providerclient.Error{Op: providerclient.OpDefendInfraction, Kind: providerclient.ErrRejected}}
	if _, err := New(Config{}, st, p, nil).DefendInfraction(context.Background(), 1, st.inf.ID, "x"); !errors.Is(err, providerclient.ErrRejected) || !st.dropped {
		t.Fatalf("refused defense: %v, dropped %v", err, st.dropped)
	}

	// A provider that turns out to take no defense: kept by PixGate, not
	// forwarded, as with a provider that says so up front.
	st = &medStore{fakeStore: newFakeStore(), inf: storage.Infraction{ID: uuid.New(), ProviderID: "inf-3", Status: storage.InfractionOpen}}
	p = &dirProvider{defErr: &providerclient.Error{Op: providerclient.OpDefendInfraction, Kind: providerclient.ErrUnsupported}}
	inf, err = New(Config{}, st, p, nil).DefendInfraction(context.Background(), 1, st.inf.ID, "kept")
	if err != nil || st.dropped || st.inf.Defense == nil || inf.Defense == nil || inf.DefenseForwarded {
		t.Fatalf("defense the provider does not take: %+v, %v; dropped %v, stored %v", inf, err, st.dropped, st.inf.Defense)
	}
}
