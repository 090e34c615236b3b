package payments

import (
	"context"
	"testing"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/fleet"
	"github.com/pixgate/pixgate/storage"
)

// defendingProvider is a provider of a fleet that takes defenses.
type defendingProvider struct {
	providerclient.Connector
	name     string
	defenses []string
}

func (p *defendingProvider) Name() string { return p.name }
func (p *defendingProvider) Kind() string { return "defending" }
func (p *defendingProvider) Capabilities() providerclient.Capabilities {
	return providerclient.Capabilities{InfractionDefense: true}
}
func (p *defendingProvider) DefendInfraction(_ context.Context, ref providerclient.InfractionRef, text string) error {
	p.defenses = append(p.defenses, ref.ProviderID+": "+text)
	return nil
}

// chargedMedStore is a medStore whose infraction disputes charge.
type chargedMedStore struct {
	*medStore
	charge storage.Charge
}

func (m *chargedMedStore) ChargeByID(context.Context, uuid.UUID) (storage.Charge, error) {
	return m.charge, nil
}

// A defense goes to the provider that took the disputed charge, which
// holds the infraction, not to the process's first provider.
func TestDefenseGoesToTheChargesProvider(t *testing.T) {
	a, b := &defendingProvider{name: "a"}, &defendingProvider{name: "b"}
	fl, err := fleet.New(fleet.Options{}, fleet.Member{Config: providerclient.Config{Name: "a"}, Connector: a},
		fleet.Member{Config: providerclient.Config{Name: "b"}, Connector: b})
	if err != nil {
		t.Fatal(err)
	}
	st := &chargedMedStore{
		medStore: &medStore{fakeStore: newFakeStore(), inf: storage.Infraction{ID: uuid.New(), ProviderID: "inf-b", Status: storage.InfractionOpen}},
		charge:   storage.Charge{ID: uuid.New(), Provider: "b"},
	}
	inf, err := New(Config{}, st, fl, nil).DefendInfraction(context.Background(), 1, st.inf.ID, "autorizado")
	if err != nil || !inf.DefenseForwarded {
		t.Fatalf("defense: %+v, %v", inf, err)
	}
	if len(a.defenses) != 0 || len(b.defenses) != 1 {
		t.Fatalf("defenses at a %v, at b %v; want one at b alone", a.defenses, b.defenses)
	}
}
