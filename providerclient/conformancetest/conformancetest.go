// Package conformancetest is the connector conformance suite: one table of
// scenarios that the connector of every kind in connectors.Kinds passes,
// built by connectors.Open with every layer PixGate gives a provider,
// against the sandbox's face of its contract, with each request and answer
// checked against the contract's published specification where PixGate
// has one (bcbpixtest for efi, wooviapitest for woovi). Run runs it for
// one kind; a kind without a sandbox face here fails it, so a new
// connector does not land without passing it.
//
// What differs by contract is declared once per kind and asserted, never
// skipped: what the connector can do it says itself (Capabilities:
// ReadsByID, Infractions, InfractionList, InfractionNotifications,
// RefundNeedsEndToEndID), and each scenario holds it to that; what only
// the sandbox's face knows (its routes, whether it answers a repeated
// create with the first transaction) its entry in faces says.
package conformancetest

import (
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/fleet"
	"github.com/pixgate/pixgate/providerclient/sandbox"
)

// scenario is one behaviour every connector shows, for each kind of
// transaction it names (of): each a subtest of its own, with a fresh
// sandbox.
type scenario struct {
	name string
	of   []providerclient.Kind
	run  func(e *env, kind providerclient.Kind)
}

var (
	transactions = []providerclient.Kind{providerclient.KindCharge, providerclient.KindPayout, providerclient.KindRefund}
	transfers    = []providerclient.Kind{providerclient.KindPayout, providerclient.KindRefund}
	// notified: every transaction, and the MED (an infraction opened and
	// agreed, and the MED return the provider makes of it).
	notified = []providerclient.Kind{providerclient.KindCharge, providerclient.KindPayout, providerclient.KindRefund,
		providerclient.KindInfraction}
)

// scenarios is the suite, the same for every connector (docs/provider.md,
// "Conformance").
var scenarios = []scenario{
	{"read by PixGate's id", transactions, readByID},
	{"a paid charge answered alike", []providerclient.Kind{providerclient.KindCharge}, paidAlike},
	{"a bare 404 proves nothing", transactions, bare404},
	{"a resend refused by a stranger proves nothing", transfers, strangerRefusal},
	{"an answer lost, then resent", transactions, lostThenResent},
	{"an answer lost, the resend refused and reads failing", transactions, refusedWhileReadsFail},
	{"a genuine refusal leaves nothing", transfers, genuineRefusal},
	{"5xx on create", transactions, unavailableCreate},
	{"reads failing", transactions, readsFailing},
	{"notifications lost", notified, notifications(lost)},
	{"notifications duplicated", notified, notifications(duplicated)},
	{"notifications out of order", notified, notifications(outOfOrder)},
	{"notifications late", notified, notifications(late)},
}

// Run runs every scenario against the connector of kind (one of
// connectors.Kinds), through the sandbox's face of its contract. The
// scenarios of one kind share one listener, each with its own sandbox.
func Run(t *testing.T, kind string) {
	f, ok := faces[kind]
	if !ok {
		t.Fatalf("connector kind %q has no sandbox face in the conformance suite (providerclient/conformancetest, faces): "+
			"a connector does not land without passing it", kind)
	}
	fr := &front{}
	h := f.serve(t, fr)
	// The scenarios mostly wait (for settlements, notifications, answers
	// that never come): they run side by side, a few at a time, whatever
	// go test's -parallel.
	slots := make(chan struct{}, sideBySide)
	var wg sync.WaitGroup
	for _, sc := range scenarios {
		for _, k := range sc.of {
			slots <- struct{}{}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer func() { <-slots }()
				t.Run(sc.name+"/"+string(k), func(t *testing.T) {
					sc.run(newEnv(t, kind, f, h, fr), k)
				})
			}()
		}
	}
	wg.Wait()
}

// sideBySide is how many scenarios of one kind run at once.
const sideBySide = 4

// readByID: a transaction is read by the provider's id and PixGate's;
// by PixGate's alone (before the provider's is known) it is found where
// the connector reads by it (Capabilities.ReadsByID), and an unknown one is
// then proved absent; elsewhere such a read is refused and proves nothing.
// A ref with no id at all never answers not found.
func readByID(e *env, k providerclient.Kind) {
	t, ctx := e.t, e.t.Context()
	x := e.txn(k)
	pid := e.create(x)
	got, err := e.conn.Read(ctx, x.ref(pid))
	if err != nil || got.ProviderID != pid || got.Amount != x.amount || got.Kind != k {
		t.Fatalf("read by both ids: %+v, %v; want %s %s of %s", got, err, k, pid, x.amount)
	}
	alone := providerclient.Ref{Kind: k, ID: x.id, Charge: x.charge}
	got, err = e.conn.Read(ctx, alone)
	if e.caps.ReadsByID {
		if err != nil || got.ProviderID != pid {
			t.Fatalf("ReadsByID: a read by PixGate's id alone: %+v, %v; want %s", got, err, pid)
		}
	} else if err == nil || proves(err) || fleet.ReadVerdict(err) != fleet.Stay {
		t.Fatalf("without ReadsByID, a read by PixGate's id alone: %+v, %v; want a refusal that proves nothing", got, err)
	}
	_, err = e.conn.Read(ctx, providerclient.Ref{Kind: k, ID: newID(), Charge: x.charge})
	if e.caps.ReadsByID {
		if !errors.Is(err, providerclient.ErrProvedAbsent) || !errors.Is(err, providerclient.ErrNotFound) || fleet.ReadVerdict(err) != fleet.MoveOn {
			t.Fatalf("ReadsByID: a read by an id the provider does not hold: %v; want proved absent", err)
		}
	} else if err == nil || proves(err) {
		t.Fatalf("without ReadsByID, a read by an unknown PixGate id: %v; want a refusal that proves nothing", err)
	}
	if _, err := e.conn.Read(ctx, providerclient.Ref{Kind: k, ProviderID: strings.ReplaceAll(newID(), "-", ""), Charge: x.charge}); !errors.Is(err, providerclient.ErrNotFound) {
		t.Fatalf("a read by a provider id the provider does not know: %v; want not found", err)
	}
	if _, err := e.conn.Read(ctx, providerclient.Ref{Kind: k, Charge: x.charge}); err == nil || proves(err) {
		t.Fatalf("a read by no id at all: %v; want a refusal that proves nothing", err)
	}
}

// bare404: a 404 no contract gives (a proxy's, a wrong path's) proves
// nothing: not to a read by either id, not to a create, fresh or repeated.
func bare404(e *env, k providerclient.Kind) {
	t, ctx := e.t, e.t.Context()
	x := e.txn(k)
	pid := e.create(x)
	fresh := x.another()
	for _, b := range bare {
		e.wire.clear()
		e.wire.answer(rule{status: 404, contentType: b.contentType, body: b.body})
		for _, ref := range []providerclient.Ref{x.ref(pid), {Kind: k, ID: x.id, Charge: x.charge}, {Kind: k, ID: fresh.id, Charge: x.charge}} {
			if _, err := e.conn.Read(ctx, ref); err == nil || errors.Is(err, providerclient.ErrProvedAbsent) || fleet.ReadVerdict(err) != fleet.Stay {
				t.Errorf("a read of %+v answered a bare 404 (%q): %v; want an error that proves nothing", ref, b.body, err)
			}
		}
		for _, y := range []*txn{x, fresh} {
			_, err := e.send(ctx, y)
			if err == nil || fleet.NothingHeld(err) {
				t.Errorf("a create answered a bare 404 (%q): %v; want an error that proves nothing", b.body, err)
			}
			if k == providerclient.KindPayout && (fleet.PayoutVerdict(err, true) != fleet.Stay || fleet.PayoutVerdict(err, false) != fleet.Stay) {
				t.Errorf("a send answered a bare 404 (%q): %v; the withdrawal must stay", b.body, err)
			}
		}
	}
	if n := e.made(k); n != 1 {
		t.Fatalf("%d %s made, want 1", n, k)
	}
}

// strangers are refusals no contract gives: a gateway's or a proxy's.
var strangers = []rule{
	{status: 403, contentType: "text/html", body: "<html><body><h1>403 Forbidden</h1></body></html>"},
	{status: 400, contentType: "text/plain", body: "Bad Request"},
	{status: 403, contentType: "application/json", body: `{"message": "Forbidden"}`},
}

// strangerRefusal: a transfer whose answer was lost is resent, and a
// stranger on the way refuses the resend: that proves nothing about what
// the provider holds (it holds the transfer).
func strangerRefusal(e *env, k providerclient.Kind) {
	t, ctx := e.t, e.t.Context()
	x := e.txn(k)
	e.lose(x)
	held := e.held(x)
	for _, r := range strangers {
		r.on = e.face.routes[k].create
		e.wire.answer(r)
		pid, err := e.send(ctx, x)
		e.wire.clear()
		switch {
		case err == nil && pid != held.TransactionID:
			t.Errorf("a resend refused by a stranger (%d %q): answered %s, but the provider holds %s", r.status, r.body, pid, held.TransactionID)
		case err != nil && (fleet.NothingHeld(err) || fleet.PayoutVerdict(err, false) != fleet.Stay):
			t.Errorf("a resend refused by a stranger (%d %q): %v; want an error that proves nothing (the provider holds it)", r.status, r.body, err)
		}
	}
	if n := e.made(k); n != 1 {
		t.Fatalf("%d %s made, want 1", n, k)
	}
}

// lostThenResent: a create whose answer was lost (the timeout fault: the
// provider made it and never answered) is an unknown outcome; where the
// connector reads by PixGate's id it finds it; resent, it is answered with
// the one transaction the provider made.
func lostThenResent(e *env, k providerclient.Kind) {
	t, ctx := e.t, e.t.Context()
	x := e.txn(k)
	e.lose(x)
	held := e.held(x)
	if e.caps.ReadsByID {
		got, err := e.conn.Read(ctx, providerclient.Ref{Kind: k, ID: x.id, Charge: x.charge})
		if err != nil || got.ProviderID != held.TransactionID {
			t.Fatalf("ReadsByID: the lost %s read by PixGate's id: %+v, %v; want %s", k, got, err, held.TransactionID)
		}
	}
	pid, err := e.send(ctx, x)
	if err != nil || pid != held.TransactionID {
		t.Fatalf("resent: %q, %v; want the one the provider holds, %s", pid, err, held.TransactionID)
	}
	if n := e.made(k); n != 1 {
		t.Fatalf("%d %s made, want 1", n, k)
	}
}

// refusedWhileReadsFail: resent while reads fail, a create the contract
// refuses as a duplicate cannot be read back: an unknown outcome that keeps
// it where it is, never a refusal to act on. Where the contract answers a
// repeat with the first transaction, the resend is simply answered.
func refusedWhileReadsFail(e *env, k providerclient.Kind) {
	t, ctx := e.t, e.t.Context()
	x := e.txn(k)
	e.lose(x)
	held := e.held(x)
	e.wire.answer(rule{on: e.face.routes[k].read, status: 503, contentType: "text/plain", body: "Service Unavailable"})
	pid, err := e.send(ctx, x)
	readBack := e.wire.answered() > 0
	e.wire.clear()
	if e.face.repeatAnswered[k] {
		if err != nil || pid != held.TransactionID {
			t.Fatalf("the contract answers a repeat with the first %s: %q, %v; want %s", k, pid, err, held.TransactionID)
		}
	} else {
		if !readBack {
			t.Fatalf("the resend was not read back (%q, %v): the face says the contract refuses a repeated %s", pid, err, k)
		}
		if !errors.Is(err, providerclient.ErrUnknownOutcome) || errors.Is(err, providerclient.ErrRejected) || fleet.NothingHeld(err) {
			t.Fatalf("a resend refused, its read-back failing: %v; want an unknown outcome", err)
		}
		switch k {
		case providerclient.KindCharge:
			if v := fleet.ChargeVerdict(err); v != fleet.ReadFirst {
				t.Fatalf("charge verdict %v on %v; want read first", v, err)
			}
		case providerclient.KindPayout:
			if fleet.PayoutVerdict(err, true) != fleet.Stay || fleet.PayoutVerdict(err, false) != fleet.Stay {
				t.Fatalf("payout verdict on %v: it must stay", err)
			}
		}
	}
	if pid, err = e.send(ctx, x); err != nil || pid != held.TransactionID {
		t.Fatalf("resent once reads work: %q, %v; want %s", pid, err, held.TransactionID)
	}
	if n := e.made(k); n != 1 {
		t.Fatalf("%d %s made, want 1", n, k)
	}
}

// genuineRefusal: a payout to a key the sandbox's directory does not
// have, a refund beyond its charge: refused, and proved to leave nothing
// behind, so the withdrawal may move on or fail, its money back.
func genuineRefusal(e *env, k providerclient.Kind) {
	t := e.t
	x := e.txn(k)
	if k == providerclient.KindPayout {
		x.key = "inexistente@example.com"
	} else {
		x.amount = chargeAmount + 1
	}
	_, err := e.send(t.Context(), x)
	if !errors.Is(err, providerclient.ErrRejected) || !fleet.NothingHeld(err) {
		t.Fatalf("a genuine refusal: %v; want a refusal proved to leave nothing", err)
	}
	if k == providerclient.KindPayout && fleet.PayoutVerdict(err, false) != fleet.MoveOn {
		t.Fatalf("payout verdict on %v: want move on", err)
	}
	if n := e.made(k); n != 0 {
		t.Fatalf("%d %s made, want none", n, k)
	}
}

// unavailableCreate: a 5xx to a create is unavailable (nothing done),
// never an unknown outcome or a proof, and nothing was made.
func unavailableCreate(e *env, k providerclient.Kind) {
	t := e.t
	x := e.txn(k)
	e.sb.SetFaults(sandbox.Faults{ErrorRate: 1, Routes: []string{e.face.routes[k].create.pattern}})
	_, err := e.send(t.Context(), x)
	e.sb.ResetFaults()
	if !errors.Is(err, providerclient.ErrUnavailable) || errors.Is(err, providerclient.ErrUnknownOutcome) || errors.Is(err, providerclient.ErrRejected) ||
		fleet.NothingHeld(err) {
		t.Fatalf("a create answered 5xx: %v; want unavailable", err)
	}
	if k == providerclient.KindCharge && fleet.ChargeVerdict(err) != fleet.MoveOn {
		t.Fatalf("charge verdict on %v: want move on", err)
	}
	if n := e.made(k); n != 0 {
		t.Fatalf("%d %s made, want none", n, k)
	}
}

// readsFailing: a read answered 5xx or during an outage is unavailable,
// one never answered an unknown outcome: never not found, never proof.
func readsFailing(e *env, k providerclient.Kind) {
	t := e.t
	x := e.txn(k)
	pid := e.create(x)
	refs := []providerclient.Ref{x.ref(pid)}
	if e.caps.ReadsByID {
		refs = append(refs, providerclient.Ref{Kind: k, ID: x.id, Charge: x.charge})
	}
	read := e.face.routes[k].read.pattern
	for name, f := range map[string]sandbox.Faults{
		"5xx":    {ErrorRate: 1, Routes: []string{read}},
		"outage": {Outage: true},
	} {
		e.sb.SetFaults(f)
		for _, ref := range refs {
			if _, err := e.conn.Read(t.Context(), ref); !errors.Is(err, providerclient.ErrUnavailable) || proves(err) || fleet.ReadVerdict(err) != fleet.Stay {
				t.Errorf("a read of %+v, %s: %v; want unavailable", ref, name, err)
			}
		}
	}
	e.sb.SetFaults(sandbox.Faults{TimeoutRate: 1, Routes: []string{read}})
	for _, ref := range refs {
		n := e.sb.Stats().Requests[read]
		ctx := e.givingUp(func() bool { return e.sb.Stats().Requests[read] > n })
		if _, err := e.conn.Read(ctx, ref); !errors.Is(err, providerclient.ErrUnknownOutcome) || proves(err) || fleet.ReadVerdict(err) != fleet.Stay {
			t.Errorf("a read of %+v never answered: %v; want an unknown outcome", ref, err)
		}
	}
	e.sb.ResetFaults()
	if got, err := e.conn.Read(t.Context(), x.ref(pid)); err != nil || got.ProviderID != pid {
		t.Fatalf("a read once healthy: %+v, %v", got, err)
	}
}

// lose sends x while the provider makes it and never answers (the timeout
// fault on its create route): an unknown outcome, never proof of anything.
func (e *env) lose(x *txn) {
	e.t.Helper()
	before := e.made(x.kind)
	e.sb.SetFaults(sandbox.Faults{TimeoutRate: 1, Routes: []string{e.face.routes[x.kind].create.pattern}})
	_, err := e.send(e.givingUp(func() bool { return e.made(x.kind) > before }), x)
	e.sb.ResetFaults()
	if !errors.Is(err, providerclient.ErrUnknownOutcome) || errors.Is(err, providerclient.ErrUnavailable) || fleet.NothingHeld(err) {
		e.t.Fatalf("a %s whose answer was lost: %v; want an unknown outcome", x.kind, err)
	}
	switch x.kind {
	case providerclient.KindCharge:
		if v := fleet.ChargeVerdict(err); v != fleet.ReadFirst {
			e.t.Fatalf("charge verdict %v on %v: want read first", v, err)
		}
	case providerclient.KindPayout:
		if fleet.PayoutVerdict(err, true) != fleet.Stay || fleet.PayoutVerdict(err, false) != fleet.Stay {
			e.t.Fatalf("payout verdict on %v: it must stay", err)
		}
	}
	if n := e.made(x.kind); n != before+1 {
		e.t.Fatalf("%d %s made, want %d: the timeout fault makes it before it holds the answer", n, x.kind, before+1)
	}
}
