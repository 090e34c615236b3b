package worker

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/family"
	"github.com/pixgate/pixgate/providerclient/fleet"
	"github.com/pixgate/pixgate/storage"
)

// member is a fakeProvider as one named provider of a fleet.
type member struct {
	providerclient.Connector
	name string
	p    *fakeProvider
}

func (m member) Name() string { return m.name }
func (m member) Kind() string { return "fake" }
func (m member) Capabilities() providerclient.Capabilities {
	return providerclient.Capabilities{Payouts: true, Refunds: true, Reads: true}
}
func (m member) Read(ctx context.Context, ref providerclient.Ref) (*providerclient.Transaction, error) {
	return m.p.Read(ctx, ref)
}
func (m member) SendPix(ctx context.Context, req providerclient.PayoutRequest) (*providerclient.Payout, error) {
	return m.p.SendPix(ctx, req)
}
func (m member) Refund(ctx context.Context, req providerclient.RefundRequest) (*providerclient.Refund, error) {
	return m.p.Refund(ctx, req)
}

// twoProviderWorker is a worker whose providers are a and b, the
// withdrawal route a→b.
func twoProviderWorker(t *testing.T, st *fakeStore, a, b *fakeProvider) *Worker {
	t.Helper()
	fl, err := fleet.New(fleet.Options{},
		fleet.Member{Config: providerclient.Config{Name: "a", RetryMaxElapsed: -1}, Connector: member{name: "a", p: a}},
		fleet.Member{Config: providerclient.Config{Name: "b", RetryMaxElapsed: -1}, Connector: member{name: "b", p: b}})
	if err != nil {
		t.Fatal(err)
	}
	st.route = &storage.Route{Charges: []storage.RouteStep{{Provider: "a"}}, Withdrawals: []string{"a", "b"}}
	return newWorker(Config{ProviderWebhookURL: "https://pixgate.example/webhooks/provider/t"}, st, fl, &fakeQueue{},
		slog.New(slog.NewTextHandler(io.Discard, nil)), nil)
}

var (
	connRefused = &providerclient.Error{Op: providerclient.OpPayout, Kind: providerclient.ErrUnavailable,
		Err: &providerclient.Error{Kind: providerclient.ErrUnavailable, Err: syscall.ECONNREFUSED}}
	sendTimeout = &providerclient.Error{Op: providerclient.OpPayout, Kind: providerclient.ErrUnknownOutcome, Err: context.DeadlineExceeded}
	payout503   = &providerclient.Error{Op: providerclient.OpPayout, Kind: providerclient.ErrUnavailable, StatusCode: 503}
)

// A withdrawal on the route a→b moves to b only on proof that a has no
// record of it, and is never sent to both.
func TestWithdrawalFailover(t *testing.T) {
	for _, tc := range []struct {
		name        string
		aErr, bErr  error
		aReadErr    error // a's answer to a read by PixGate's id (nil: proved absent)
		sentBefore  bool  // a send to a began before this one
		wantAt      string
		wantSentA   int
		wantSentB   int
		wantMoves   []string
		wantStatus  storage.TransferStatus
		wantRetried bool // the task fails, to be retried
	}{
		{name: "a takes it", wantAt: "a", wantSentA: 1, wantStatus: storage.TransferProcessing},
		{name: "a refuses the connection on the first send: sent at b", aErr: connRefused,
			wantAt: "b", wantSentB: 1, wantMoves: []string{"a→b"}, wantStatus: storage.TransferProcessing},
		{name: "a rejects it, holding nothing: sent at b", aErr: refusedAbsent("no balance"),
			wantAt: "b", wantSentB: 1, wantMoves: []string{"a→b"}, wantStatus: storage.TransferProcessing},
		{name: "both reject it, holding nothing: it fails with b's reason", aErr: refusedAbsent("no balance"), bErr: refusedAbsent("key blocked"),
			wantAt: "b", wantMoves: []string{"a→b"}, wantStatus: storage.TransferFailed},
		{name: "a refuses it without proof (its id may be used by a send whose answer was lost): it stays with a",
			aErr: rejected("id_envio_duplicado"), wantAt: "a", wantStatus: storage.TransferProcessing, wantRetried: true},
		{name: "a refuses after an earlier send, and the read by PixGate's id is a bare 404: it stays", aErr: connRefused,
			aReadErr:   &providerclient.Error{Op: providerclient.OpRead, Kind: providerclient.ErrNotFound, StatusCode: 404},
			sentBefore: true, wantAt: "a", wantStatus: storage.TransferProcessing, wantRetried: true},
		{name: "a times out: it stays with a", aErr: sendTimeout, wantAt: "a", wantStatus: storage.TransferProcessing, wantRetried: true},
		{name: "a answers 503: it stays with a", aErr: payout503, wantAt: "a", wantStatus: storage.TransferProcessing, wantRetried: true},
		{name: "a refuses after an earlier send that may have reached it, and cannot be read: it stays", aErr: connRefused,
			aReadErr: connRefused, sentBefore: true, wantAt: "a", wantStatus: storage.TransferProcessing, wantRetried: true},
		{name: "a refuses after an earlier send, and a read there finds nothing: sent at b", aErr: connRefused,
			sentBefore: true, wantAt: "b", wantSentB: 1, wantMoves: []string{"a→b"}, wantStatus: storage.TransferProcessing},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := newFakeStore()
			a := &fakeProvider{txns: map[string]*family.Transaction{}, sendErr: tc.aErr, consultErr: tc.aReadErr}
			b := &fakeProvider{txns: map[string]*family.Transaction{}, sendErr: tc.bErr}
			w := twoProviderWorker(t, st, a, b)
			tr := newTransfer(storage.KindWithdrawal, nil)
			tr.Provider = "a"
			st.transfers[tr.ID] = tr
			if tc.sentBefore {
				if _, _, err := st.ClaimWithdrawalSend(context.Background(), tr.ID); err != nil {
					t.Fatal(err)
				}
			}
			err := w.sendTransfer(context.Background(), storage.KindWithdrawal, tr.ID)
			if (err != nil) != tc.wantRetried {
				t.Fatalf("sendTransfer = %v; want retried %v", err, tc.wantRetried)
			}
			got := st.transfers[tr.ID]
			if got.Provider != tc.wantAt || got.Status != tc.wantStatus || !slices.Equal(st.moves, tc.wantMoves) {
				t.Fatalf("at %q, %s, moves %v; want at %q, %s, moves %v", got.Provider, got.Status, st.moves, tc.wantAt, tc.wantStatus, tc.wantMoves)
			}
			if len(a.sent) != tc.wantSentA || len(b.sent) != tc.wantSentB {
				t.Fatalf("sent at a %d, at b %d; want %d, %d", len(a.sent), len(b.sent), tc.wantSentA, tc.wantSentB)
			}
			if len(a.sent)+len(b.sent) == 1 && (got.PixID == nil || *got.PixID != "prov-"+tr.ID.String()) {
				t.Fatalf("pix_id %v: the provider that took it is not recorded", got.PixID)
			}
		})
	}
}

// An ambiguous send stays with its provider and is resolved there: sent
// again (the same id) at a once it answers, never at b.
func TestWithdrawalAmbiguousResolvesAtItsProvider(t *testing.T) {
	st := newFakeStore()
	a := &fakeProvider{txns: map[string]*family.Transaction{}, sendErr: sendTimeout}
	b := &fakeProvider{txns: map[string]*family.Transaction{}}
	w := twoProviderWorker(t, st, a, b)
	tr := newTransfer(storage.KindWithdrawal, nil)
	tr.Provider = "a"
	st.transfers[tr.ID] = tr
	ctx := context.Background()
	if err := w.sendTransfer(ctx, storage.KindWithdrawal, tr.ID); !errors.Is(err, providerclient.ErrUnknownOutcome) {
		t.Fatalf("first send = %v, want the unknown outcome (retried)", err)
	}
	// a is down now: nothing sent, but the first send may have reached it.
	a.mu.Lock()
	a.sendErr, a.consultErr = connRefused, connRefused
	a.mu.Unlock()
	if err := w.sendTransfer(ctx, storage.KindWithdrawal, tr.ID); err == nil {
		t.Fatal("a send a refused, after one that may have paid, was not retried")
	}
	a.mu.Lock()
	a.sendErr, a.consultErr = nil, nil
	a.mu.Unlock()
	if err := w.sendTransfer(ctx, storage.KindWithdrawal, tr.ID); err != nil {
		t.Fatal(err)
	}
	if got := st.transfers[tr.ID]; got.Provider != "a" || got.PixID == nil || len(a.sent) != 1 || len(b.sent) != 0 || len(st.moves) != 0 {
		t.Fatalf("at %q, pix %v, sent at a %d, at b %d, moves %v; want sent once, at a", got.Provider, got.PixID, len(a.sent), len(b.sent), st.moves)
	}
}

// Reads go to the provider recorded on each transaction.
func TestReadsGoToTheRecordedProvider(t *testing.T) {
	st := newFakeStore()
	a := &fakeProvider{txns: map[string]*family.Transaction{}}
	b := &fakeProvider{txns: map[string]*family.Transaction{}}
	w := twoProviderWorker(t, st, a, b)
	c := newPendingCharge("pix-b")
	c.Provider = "b"
	st.charges[c.ID] = c
	if err := w.checkCharge(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	if a.consulted != 0 || b.consulted != 1 {
		t.Fatalf("a read %d times, b %d; want the charge read at b", a.consulted, b.consulted)
	}
}

// disputesMember is a fakeDisputes as one named provider of a fleet.
type disputesMember struct {
	member
	d *fakeDisputes
}

func (m disputesMember) Capabilities() providerclient.Capabilities { return m.d.Capabilities() }
func (m disputesMember) ReadInfraction(ctx context.Context, ref providerclient.InfractionRef) (*providerclient.Infraction, error) {
	return m.d.ReadInfraction(ctx, ref)
}
func (m disputesMember) ListInfractions(ctx context.Context, since time.Time) ([]providerclient.Infraction, error) {
	return m.d.ListInfractions(ctx, since)
}

// Infractions of a provider other than the default are polled at it, and
// a notified one is read at whichever provider knows it.
func TestInfractionsOfEveryProvider(t *testing.T) {
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
		pix, url := "pix-b", "https://shop.example/hook"
		c := storage.Charge{ID: uuid.New(), IntegratorID: 1, Amount: 10000, Status: storage.ChargePaid, PixID: &pix, PostbackURL: &url, Provider: "b"}
		st.charges[c.ID] = c
		d.set(providerclient.Infraction{ProviderID: "inf-b", Charge: providerclient.Ref{ProviderID: pix}, Amount: 6000, Status: providerclient.InfractionOpen})
		ctx := context.Background()
		if notified {
			st.events[1] = storage.ProviderEvent{ID: 1, TransactionType: string(providerclient.KindInfraction), TransactionID: "inf-b", Status: "OPEN"}
			err = w.applyInfractionEvent(ctx, st.events[1])
		} else {
			err = w.pollInfractions(ctx, 0)
		}
		if err != nil || len(st.infractions) != 1 {
			t.Fatalf("notified %v: %v, %d infractions; want b's opened", notified, err, len(st.infractions))
		}
	}
}
