package worker

import (
	"context"
	"io"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/tasks"
)

// medWorker is a worker on the fakes whose provider reads infractions, with
// one paid charge.
func medWorker(t *testing.T) (*Worker, *fakeStore, *fakeDisputes, storage.Charge) {
	t.Helper()
	st := newFakeStore()
	d := &fakeDisputes{fakeProvider: &fakeProvider{}, infractions: map[string]*providerclient.Infraction{}}
	w := newWorker(Config{}, st, d, &fakeQueue{}, slog.New(slog.NewTextHandler(io.Discard, nil)), nil)
	pix, url := "pix-1", "https://shop.example/hook"
	c := storage.Charge{ID: uuid.New(), IntegratorID: 1, Amount: 10000, Status: storage.ChargePaid, PixID: &pix, PostbackURL: &url}
	st.charges[c.ID] = c
	return w, st, d, c
}

func (s *fakeStore) count(prefix string) int {
	n := 0
	for _, p := range s.postings {
		if strings.HasPrefix(p, prefix) {
			n++
		}
	}
	return n
}

// A notification, a poll and the reconciler bring the same infraction, at
// once and again: it is opened once and closed once, with one postback
// per status and one MED return, whose send is asked for once.
func TestInfractionAppliedOnceWhateverBringsIt(t *testing.T) {
	w, st, d, c := medWorker(t)
	ctx := context.Background()
	d.set(providerclient.Infraction{ProviderID: "inf-1", Charge: providerclient.Ref{ProviderID: *c.PixID}, Amount: 6000,
		Status: providerclient.InfractionOpen})
	bring := func() {
		var wg sync.WaitGroup
		for range 3 {
			wg.Add(3)
			go func() { defer wg.Done(); _ = w.pollInfractions(ctx, 0) }()
			go func() { defer wg.Done(); _ = w.reconcileInfractions(ctx, 0) }()
			go func() {
				defer wg.Done()
				inf, _ := d.ReadInfraction(ctx, providerclient.InfractionRef{ProviderID: "inf-1"})
				if _, err := w.applyInfraction(ctx, providerclient.DefaultName, inf, nil); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
	}
	bring()
	if n := st.count("infraction:"); n != 1 || len(st.infractions) != 1 {
		t.Fatalf("%d block postings, %d infractions", n, len(st.infractions))
	}
	d.set(providerclient.Infraction{ProviderID: "inf-1", Charge: providerclient.Ref{ProviderID: *c.PixID}, Amount: 6000,
		Status: providerclient.InfractionAgreed, Analysis: "procedente"})
	bring()
	if n := st.count("med_return:"); n != 1 || st.count("infraction:") != 1 {
		t.Fatalf("postings %v", st.postings)
	}
	var events []string
	for _, p := range st.postbacks {
		events = append(events, p.ResourceType+" "+p.Event)
	}
	slices.Sort(events)
	if !slices.Equal(events, []string{"infraction AGREED", "infraction OPEN"}) {
		t.Fatalf("postbacks %v", events)
	}
	sends := 0
	for _, m := range st.outbox {
		if m.Type == tasks.TypeMedReturnSend {
			sends++
		}
	}
	if sends != 1 {
		t.Fatalf("%d MED return sends asked for", sends)
	}
}

// An infraction first seen closed (a poll that missed it open) is opened
// and closed in one step; one on a charge PixGate does not have is
// ignored.
func TestInfractionFirstSeenClosed(t *testing.T) {
	w, st, _, c := medWorker(t)
	ctx := context.Background()
	o, err := w.applyInfraction(ctx, providerclient.DefaultName, &providerclient.Infraction{ProviderID: "inf-2", Charge: providerclient.Ref{ProviderID: *c.PixID},
		Amount: 100, Status: providerclient.InfractionDisagreed}, nil)
	if err != nil || o.kind != applied || !slices.Equal(st.postings, []string{
		"infraction:" + firstInfraction(st).ID.String() + ":block", "infraction:" + firstInfraction(st).ID.String() + ":release"}) {
		t.Fatalf("outcome %v, %v; postings %v", o, err, st.postings)
	}
	o, err = w.applyInfraction(ctx, providerclient.DefaultName, &providerclient.Infraction{ProviderID: "inf-3", Charge: providerclient.Ref{ProviderID: "nope"},
		Amount: 100, Status: providerclient.InfractionOpen}, nil)
	if err != nil || o.kind != ignored {
		t.Fatalf("unknown charge: %v, %v", o, err)
	}
}

// A MED return is found at the provider, never asked of it: no refund or
// PIX is sent, and once the provider names it the return is recorded.
func TestMedReturnIsFoundNeverSent(t *testing.T) {
	w, st, d, c := medWorker(t)
	ctx := context.Background()
	d.set(providerclient.Infraction{ProviderID: "inf-4", Charge: providerclient.Ref{ProviderID: *c.PixID}, Amount: 5000,
		Status: providerclient.InfractionAgreed})
	if _, err := w.applyInfraction(ctx, providerclient.DefaultName, mustRead(t, d, "inf-4"), nil); err != nil {
		t.Fatal(err)
	}
	ret := *firstInfraction(st).MedReturnID
	if err := w.sendTransfer(ctx, storage.KindMedReturn, ret); err == nil {
		t.Fatal("a MED return the provider has not made yet was taken as sent")
	}
	inf := *mustRead(t, d, "inf-4")
	inf.Return = &providerclient.Transaction{Kind: providerclient.KindMedReturn, ProviderID: "ret-1", Status: providerclient.StatusProcessing}
	d.set(inf)
	if err := w.sendTransfer(ctx, storage.KindMedReturn, ret); err != nil {
		t.Fatal(err)
	}
	if got := st.transfers[ret]; got.PixID == nil || *got.PixID != "ret-1" || got.Status != storage.TransferProcessing {
		t.Fatalf("MED return %+v", got)
	}
	if len(d.sent) != 0 {
		t.Fatalf("the provider was asked to send %v", d.sent)
	}
}

func firstInfraction(st *fakeStore) storage.Infraction {
	for _, i := range st.infractions {
		return i
	}
	return storage.Infraction{}
}

func mustRead(t *testing.T, d *fakeDisputes, id string) *providerclient.Infraction {
	t.Helper()
	inf, err := d.ReadInfraction(context.Background(), providerclient.InfractionRef{ProviderID: id})
	if err != nil {
		t.Fatal(err)
	}
	return inf
}

// An infraction the provider still has open goes to the back of the
// reconciler's queue when read, not only when its read fails: the batch
// of the longest-stale ones would otherwise be read again every tick
// (a MED analysis takes days), and the infractions behind it never.
func TestStillOpenInfractionGoesToTheBack(t *testing.T) {
	w, st, d, c := medWorker(t)
	ctx := context.Background()
	d.set(providerclient.Infraction{ProviderID: "inf-9", Charge: providerclient.Ref{ProviderID: *c.PixID}, Amount: 1000,
		Status: providerclient.InfractionOpen})
	inf, _ := d.ReadInfraction(ctx, providerclient.InfractionRef{ProviderID: "inf-9"})
	if _, err := w.applyInfraction(ctx, providerclient.DefaultName, inf, nil); err != nil {
		t.Fatal(err)
	}
	var id uuid.UUID
	for k := range st.infractions {
		id = k
	}
	if err := w.reconcileInfractions(ctx, 0); err != nil {
		t.Fatal(err)
	}
	if st.touched[id] != 1 {
		t.Fatalf("still open after its read: touched %d times, want 1", st.touched[id])
	}
}
