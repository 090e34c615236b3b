package worker

import (
	"context"
	"io"
	"log/slog"
	"testing"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/fleet"
	"github.com/pixgate/pixgate/storage"
)

// An infraction one provider reports, polled or notified, on a charge
// another provider took is not applied: the charge's provider holds its
// infractions, and the other's claim would block the integrator's money
// and send a MED return nobody made.
func TestInfractionOfAnotherProvidersChargeIsIgnored(t *testing.T) {
	for _, notified := range []bool{false, true} {
		st := newFakeStore()
		d := &fakeDisputes{fakeProvider: &fakeProvider{}, infractions: map[string]*providerclient.Infraction{}}
		fl, err := fleet.New(fleet.Options{},
			fleet.Member{Config: providerclient.Config{Name: "default", RetryMaxElapsed: -1}, Connector: member{name: "default", p: &fakeProvider{}}},
			fleet.Member{Config: providerclient.Config{Name: "b", RetryMaxElapsed: -1}, Connector: disputesMember{member{name: "b", p: d.fakeProvider}, d}})
		if err != nil {
			t.Fatal(err)
		}
		w := newWorker(Config{}, st, fl, &fakeQueue{}, slog.New(slog.NewTextHandler(io.Discard, nil)), nil)
		pix, url := "pix-default", "https://shop.example/hook"
		c := storage.Charge{ID: uuid.New(), IntegratorID: 1, Amount: 10000, Status: storage.ChargePaid, PixID: &pix, PostbackURL: &url,
			Provider: storage.DefaultProvider}
		st.charges[c.ID] = c
		d.set(providerclient.Infraction{ProviderID: "inf-b", Charge: providerclient.Ref{ProviderID: pix}, Amount: 6000, Status: providerclient.InfractionAgreed})
		ctx := context.Background()
		if notified {
			st.events[1] = storage.ProviderEvent{ID: 1, TransactionType: string(providerclient.KindInfraction), TransactionID: "inf-b", Status: "AGREED"}
			err = w.applyInfractionEvent(ctx, st.events[1])
		} else {
			err = w.pollInfractions(ctx, 0)
		}
		if err != nil || len(st.infractions) != 0 {
			t.Fatalf("notified %v: %v, %d infractions; want none applied to the default provider's charge", notified, err, len(st.infractions))
		}
	}
}
