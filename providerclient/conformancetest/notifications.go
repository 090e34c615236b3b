package conformancetest

import (
	"errors"
	"slices"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/sandbox"
	"github.com/pixgate/pixgate/storage/money"
)

// The notification scenarios: for every kind the contract notifies, MED
// included, notifications lost, duplicated, out of order and late; every
// copy must name its transaction, and a read must tell the final truth.

// notice is how the sandbox notifies: a fault of its notifications, and
// what PixGate then receives of each.
type notice struct {
	faults sandbox.Faults
	// late: PixGate refuses every delivery until the truth has been read;
	// the sandbox tries again and the notifications come late.
	late bool
	// copies of each notification come (0: lost); stale: copies claiming
	// an earlier status may come after them.
	copies int
	stale  bool
}

var (
	lost       = notice{faults: sandbox.Faults{DropNotifications: true}}
	duplicated = notice{faults: sandbox.Faults{DuplicateNotifications: 3}, copies: 3}
	outOfOrder = notice{faults: sandbox.Faults{DuplicateNotifications: 3, OutOfOrderNotifications: true}, copies: 3, stale: true}
	late       = notice{late: true, copies: 1}
)

// notifications: whatever comes of a transaction's notifications (lost,
// duplicated, out of order, late), each copy parses to a claim about it,
// and a read tells its final truth; for the MED, an infraction's and its
// MED return's.
func notifications(n notice) func(e *env, k providerclient.Kind) {
	return func(e *env, k providerclient.Kind) {
		if k == providerclient.KindInfraction {
			e.infractionNotified(n)
			return
		}
		e.notified(n, k)
	}
}

func (e *env) notified(n notice, k providerclient.Kind) {
	t := e.t
	x := e.txn(k)
	from := len(e.hook.deliveries(0))
	e.hook.setDown(n.late)
	e.sb.SetFaults(n.faults)
	pid := e.create(x)
	e.finish(x, pid)
	got := e.awaitFinal(x, pid)
	if got.Amount != x.amount {
		t.Fatalf("read: %+v; want %s", got, x.amount)
	}
	if e.caps.ReadsByID {
		if got, err := e.conn.Read(t.Context(), providerclient.Ref{Kind: k, ID: x.id, Charge: x.charge}); err != nil || got.Status != x.final() {
			t.Fatalf("ReadsByID: read by PixGate's id: %+v, %v", got, err)
		}
	}
	e.comeBack(n)
	claims := e.claims(from, n, map[providerclient.Kind]string{k: pid}, func(c map[claim]int) bool {
		return c[claim{k, x.final()}] >= n.copies
	})
	e.expect(claims, claim{k, x.final()}, n)
	// What the copies said, in whatever order they came, a read still
	// tells as it is.
	if got, err := e.conn.Read(t.Context(), x.ref(pid)); err != nil || got.Status != x.final() {
		t.Fatalf("read after the notifications: %+v, %v", got, err)
	}
}

// chargeAmount is what the charges a refund or an infraction names come to.
var chargeAmount = money.FromReais(25, 0)

// infractionNotified: a MED infraction opened on a paid charge and agreed,
// and the MED return the provider makes of it. The connector reads,
// lists and is notified of infractions as its Capabilities say, and no
// further; the MED return is read and notified as any transfer.
func (e *env) infractionNotified(n notice) {
	t, ctx := e.t, e.t.Context()
	c := e.paidCharge()
	since := time.Now().Add(-time.Minute)
	if !e.caps.Infractions && !e.caps.InfractionList && !e.caps.InfractionNotifications {
		// Declared: no MED through this connector. It says so, never
		// "not found".
		if _, err := e.conn.ReadInfraction(ctx, providerclient.InfractionRef{ProviderID: "x", Charge: *c}); !errors.Is(err, providerclient.ErrUnsupported) {
			t.Fatalf("no MED declared, ReadInfraction: %v; want unsupported", err)
		}
		if _, err := e.conn.ListInfractions(ctx, since); !errors.Is(err, providerclient.ErrUnsupported) {
			t.Fatalf("no MED declared, ListInfractions: %v; want unsupported", err)
		}
		return
	}
	from := len(e.hook.deliveries(0))
	e.hook.setDown(n.late)
	e.sb.SetFaults(n.faults)
	opened, err := e.sb.OpenInfraction(c.ProviderID, 0, "golpe do falso vendedor")
	if err != nil {
		t.Fatal(err)
	}
	closed, err := e.sb.CloseInfraction(opened.TransactionID, "AGREED", "procedente")
	if err != nil || closed.ReturnTransactionID == "" {
		t.Fatalf("close: %+v, %v", closed, err)
	}
	id, ret := opened.TransactionID, closed.ReturnTransactionID
	check := func(how string, inf *providerclient.Infraction) {
		if inf.Status != providerclient.InfractionAgreed || inf.Amount != chargeAmount || inf.Return == nil || inf.Return.ProviderID != ret {
			t.Fatalf("the infraction %s: %+v; want AGREED for %s, its MED return %s", how, inf, chargeAmount, ret)
		}
	}
	if e.caps.Infractions {
		inf, err := e.conn.ReadInfraction(ctx, providerclient.InfractionRef{ProviderID: id, Charge: *c})
		if err != nil {
			t.Fatalf("ReadInfraction: %v", err)
		}
		check("read", inf)
	}
	if e.caps.InfractionList {
		list, err := e.conn.ListInfractions(ctx, since)
		var found *providerclient.Infraction
		for i := range list {
			if list[i].ProviderID == id {
				found = &list[i]
			}
		}
		if err != nil || found == nil {
			t.Fatalf("ListInfractions: %+v, %v; want %s in it", list, err, id)
		}
		check("listed", found)
	}
	var got *providerclient.Transaction
	waitFor(t, "the MED return to read COMPLETED", func() bool {
		got, err = e.conn.Read(ctx, providerclient.Ref{Kind: providerclient.KindMedReturn, ProviderID: ret, Charge: c})
		return err == nil && got.Status == providerclient.StatusCompleted
	})
	if got.Amount != chargeAmount || got.Kind != providerclient.KindMedReturn {
		t.Fatalf("the MED return read: %+v; want %s", got, chargeAmount)
	}
	e.comeBack(n)
	want := map[providerclient.Kind]string{providerclient.KindMedReturn: ret}
	if e.caps.InfractionNotifications {
		want[providerclient.KindInfraction] = id
	}
	agreed := claim{providerclient.KindInfraction, providerclient.Status(providerclient.InfractionAgreed)}
	openClaim := claim{providerclient.KindInfraction, providerclient.Status(providerclient.InfractionOpen)}
	returned := claim{providerclient.KindMedReturn, providerclient.StatusCompleted}
	claims := e.claims(from, n, want, func(c map[claim]int) bool {
		return c[returned] >= n.copies && (!e.caps.InfractionNotifications || c[agreed] >= n.copies && c[openClaim] >= n.copies)
	})
	e.expect(claims, returned, n)
	if e.caps.InfractionNotifications {
		e.expect(claims, agreed, n, openClaim)
		if c := claims[openClaim]; c < n.copies || !n.stale && c != n.copies {
			t.Fatalf("%d notifications claim the infraction OPEN, want %d: %v", c, n.copies, claims)
		}
	}
}

// comeBack, for late notifications, waits until the sandbox has tried to
// deliver and been refused, then lets deliveries in.
func (e *env) comeBack(n notice) {
	if !n.late {
		return
	}
	waitFor(e.t, "a delivery refused", func() bool { return e.hook.refusals() > 0 })
	e.hook.setDown(false)
}

// claim is what a notification claims: a kind of transaction and a status
// (an infraction's status as a Status).
type claim struct {
	kind   providerclient.Kind
	status providerclient.Status
}

// claims waits until enough has come (enough, or the sandbox is done when
// the notifications are lost), then until the sandbox is quiet, and reads
// every notification accepted since from: each must parse to claims about
// want's transactions alone (kind → provider id). It counts them.
func (e *env) claims(from int, n notice, want map[providerclient.Kind]string, enough func(map[claim]int) bool) map[claim]int {
	t := e.t
	t.Helper()
	count := func() map[claim]int {
		c := map[claim]int{}
		for i, d := range e.hook.deliveries(from) {
			evs, err := e.conn.ParseNotification(d.header, d.body)
			if err != nil || len(evs) == 0 {
				t.Fatalf("notification %d does not parse: %v, %v\n%s", from+i, evs, err, d.body)
			}
			for _, ev := range evs {
				if id, ok := want[ev.Kind]; !ok || ev.ProviderID != id {
					t.Fatalf("notification %d claims %s %s (%s), not one of %v\n%s", from+i, ev.Kind, ev.ProviderID, ev.Status, want, d.body)
				}
				c[claim{ev.Kind, ev.Status}]++
			}
		}
		return c
	}
	if n.copies > 0 {
		waitFor(t, "the notifications", func() bool { return enough(count()) })
	}
	e.quiet()
	return count()
}

// expect checks that the notification of c came copies times, and that
// no other status of c's kind was claimed but those of also (checked by
// the caller) and, under the out-of-order fault, earlier ones sent late.
func (e *env) expect(claims map[claim]int, c claim, n notice, also ...claim) {
	e.t.Helper()
	if claims[c] != n.copies {
		e.t.Fatalf("%d notifications claim %s %s, want %d: %v", claims[c], c.kind, c.status, n.copies, claims)
	}
	for other := range claims {
		if other.kind == c.kind && other != c && !n.stale && !slices.Contains(also, other) {
			e.t.Fatalf("notifications claim %s %s, an earlier status, without the out-of-order fault: %v", other.kind, other.status, claims)
		}
	}
}
