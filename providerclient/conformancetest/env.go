package conformancetest

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/connectors"
	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/providerclient/sandbox"
	"github.com/pixgate/pixgate/storage/money"
)

// Timings of the suite: a sandbox that settles and notifies within
// milliseconds, a connector that waits for healthy answers long enough
// for a loaded machine, and a caller that gives up on a held request
// (the timeout fault) soon.
const (
	settleDelay  = 20 * time.Millisecond
	notifyWait   = 50 * time.Millisecond
	callTimeout  = 2 * time.Second
	retryElapsed = 200 * time.Millisecond
	// quietFor is how long the sandbox must send nothing for its
	// notifications to be over: several of its retry intervals.
	quietFor = 100 * time.Millisecond
)

// env is one scenario's provider: a fresh sandbox behind the kind's face,
// a receiver of its notifications, and the kind's connector built by
// connectors.Open (with every layer PixGate gives a provider) behind an
// injector, all for t.
type env struct {
	t    *testing.T
	face face
	sb   *sandbox.Sandbox
	conn providerclient.Connector
	caps providerclient.Capabilities
	hook *receiver
	wire *injector
}

// newEnv puts a fresh sandbox behind the kind's listener and builds the
// connector for it.
func newEnv(t *testing.T, kind string, f face, h *host, fr *front) *env {
	e := &env{t: t, face: f}
	e.hook = newReceiver(t, h.webhook)
	hookURL := e.hook.srv.URL + "/webhooks/provider/token"
	cfg := h.sandbox(hookURL)
	cfg.SettleDelay, cfg.NotifyMaxInterval = settleDelay, notifyWait
	e.sb = sandbox.New(cfg)
	t.Cleanup(e.sb.Close) // before the listener closes: it releases held requests
	if got := e.sb.Contract(); got != f.contract {
		t.Fatalf("the sandbox shows the %q face, not the %q face of kind %q", got, f.contract, kind)
	}
	e.wire = &injector{next: h.wire(t), sandbox: newID()}
	fr.serve(t, e.wire.sandbox, e.sb.Handler())
	pc := h.config(hookURL)
	pc.Name, pc.Timeout, pc.RetryMaxElapsed = "conformance-"+kind, callTimeout, retryElapsed
	pc.HTTPClient = &http.Client{Transport: e.wire,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	conn, err := connectors.Open(pc)
	if err != nil {
		t.Fatalf("kind %q: %v", kind, err)
	}
	if conn.Kind() != kind {
		t.Fatalf("connectors.Open built a %q connector for kind %q", conn.Kind(), kind)
	}
	e.conn, e.caps = conn, conn.Capabilities()
	t.Cleanup(func() { e.sb.ResetFaults(); e.wire.clear() })
	return e
}

// givingUp is a context whose caller stops waiting once cond holds (the
// provider has the request, or has done the work), as one whose deadline
// passes while the provider holds its answer (the timeout fault).
func (e *env) givingUp(cond func() bool) context.Context {
	ctx, cancel := context.WithCancelCause(e.t.Context())
	e.t.Cleanup(func() { cancel(nil) })
	go func() {
		deadline := time.Now().Add(5 * time.Second)
		for !cond() && ctx.Err() == nil && time.Now().Before(deadline) {
			time.Sleep(2 * time.Millisecond)
		}
		time.Sleep(10 * time.Millisecond) // the request written in full
		cancel(errors.New("the caller stopped waiting for the answer"))
	}()
	return ctx
}

func newID() string { return uuid.Must(uuid.NewV7()).String() }

// txn is a transaction the suite makes under PixGate's id: a charge, a
// payout, or a refund of a paid charge.
type txn struct {
	kind   providerclient.Kind
	id     string
	amount money.Money
	key    string              // a payout's
	charge *providerclient.Ref // a refund's
}

// txn readies a transaction of kind: for a refund, a paid charge.
func (e *env) txn(kind providerclient.Kind) *txn {
	x := &txn{kind: kind, id: newID()}
	switch kind {
	case providerclient.KindCharge:
		x.amount = money.FromReais(10, 0)
	case providerclient.KindPayout:
		x.amount, x.key = money.FromReais(7, 50), "fulano@example.com"
	case providerclient.KindRefund:
		x.amount, x.charge = money.FromReais(10, 0), e.paidCharge()
	default:
		e.t.Fatalf("no transaction of kind %q", kind)
	}
	return x
}

// paidCharge is a charge of R$ 25.00 paid, as its refund or its MED
// infraction names it.
func (e *env) paidCharge() *providerclient.Ref {
	e.t.Helper()
	x := &txn{kind: providerclient.KindCharge, id: newID(), amount: chargeAmount}
	pid := e.create(x)
	delivered := e.sb.Stats().NotificationsDelivered
	if _, err := e.sb.PayCharge(pid, sandbox.Payer{}); err != nil {
		e.t.Fatal(err)
	}
	// Its notification comes before anything the scenario watches.
	waitFor(e.t, "the paid charge's notification", func() bool { return e.sb.Stats().NotificationsDelivered > delivered })
	ref := providerclient.Ref{Kind: providerclient.KindCharge, ID: x.id, ProviderID: pid}
	got, err := e.conn.Read(e.t.Context(), ref)
	if err != nil || got.Status != providerclient.StatusPaid {
		e.t.Fatalf("the paid charge read back: %+v, %v", got, err)
	}
	if e.caps.RefundNeedsEndToEndID && got.EndToEndID == "" {
		e.t.Fatalf("a refund needs the end-to-end id of the charge's payment, and its read names none: %+v", got)
	}
	ref.EndToEndID = got.EndToEndID
	return &ref
}

// send asks the provider for x, under PixGate's id, and returns the
// provider's id.
func (e *env) send(ctx context.Context, x *txn) (string, error) {
	hook := e.hook.srv.URL + "/webhooks/provider/token"
	switch x.kind {
	case providerclient.KindCharge:
		ch, err := e.conn.CreateCharge(ctx, providerclient.ChargeRequest{ID: x.id, Amount: x.amount, PayerQuestion: "pedido",
			Payer: providerclient.Party{Name: "Fulano de Tal", Document: "52998224725"}, Expiration: time.Hour, NotifyURL: hook})
		if err != nil {
			return "", err
		}
		return ch.ProviderID, nil
	case providerclient.KindPayout:
		po, err := e.conn.SendPix(ctx, providerclient.PayoutRequest{ID: x.id, Amount: x.amount, Description: "saque", NotifyURL: hook,
			Recipient: providerclient.Recipient{Name: "Fulano", KeyType: "EMAIL", Key: x.key, TaxID: "52998224725"}})
		if err != nil {
			return "", err
		}
		return po.ProviderID, nil
	}
	rf, err := e.conn.Refund(ctx, providerclient.RefundRequest{ID: x.id, Charge: *x.charge, Amount: x.amount,
		Description: "devolução", NotifyURL: hook})
	if err != nil {
		return "", err
	}
	return rf.ProviderID, nil
}

// create makes x, healthy, and returns the provider's id.
func (e *env) create(x *txn) string {
	e.t.Helper()
	pid, err := e.send(e.t.Context(), x)
	if err != nil || pid == "" {
		e.t.Fatalf("%s %s: provider id %q, %v", x.kind, x.id, pid, err)
	}
	return pid
}

// another is a transaction like x under another id.
func (x *txn) another() *txn {
	y := *x
	y.id = newID()
	return &y
}

// ref names x for a read: PixGate's id, the provider's when known, and
// the refunded charge.
func (x *txn) ref(providerID string) providerclient.Ref {
	return providerclient.Ref{Kind: x.kind, ID: x.id, ProviderID: providerID, Charge: x.charge}
}

// final is the status x reaches: a charge paid, a transfer completed.
func (x *txn) final() providerclient.Status {
	if x.kind == providerclient.KindCharge {
		return providerclient.StatusPaid
	}
	return providerclient.StatusCompleted
}

// finish brings x to its final status: a charge is paid by the sandbox's
// payer; a transfer settles on its own.
func (e *env) finish(x *txn, providerID string) {
	if x.kind == providerclient.KindCharge {
		if _, err := e.sb.PayCharge(providerID, sandbox.Payer{}); err != nil {
			e.t.Fatal(err)
		}
	}
}

// awaitFinal reads x until it reports its final status, and returns that
// read.
func (e *env) awaitFinal(x *txn, providerID string) *providerclient.Transaction {
	e.t.Helper()
	var got *providerclient.Transaction
	var err error
	waitFor(e.t, string(x.kind)+" "+x.id+" to read "+string(x.final()), func() bool {
		got, err = e.conn.Read(e.t.Context(), x.ref(providerID))
		return err == nil && got.Status == x.final()
	})
	return got
}

// sandboxType is the sandbox's type of a kind of transaction.
var sandboxType = map[providerclient.Kind]string{
	providerclient.KindCharge: contract.TypeReceivePix, providerclient.KindPayout: contract.TypePayment,
	providerclient.KindRefund: contract.TypeRefund,
}

// made is how many transactions of kind the sandbox made (Stats): a
// repeat of a known id is not one.
func (e *env) made(kind providerclient.Kind) int {
	s := e.sb.Stats()
	switch kind {
	case providerclient.KindCharge:
		return s.ChargesCreated
	case providerclient.KindPayout:
		return s.PaymentsCreated
	}
	return s.RefundsCreated
}

// held is the one transaction of kind the sandbox holds under x's id, in
// the contract's form of it; it fails t unless there is exactly one.
func (e *env) held(x *txn) sandbox.Transaction {
	e.t.Helper()
	var found []sandbox.Transaction
	for _, tr := range e.sb.Transactions(sandboxType[x.kind]) {
		if tr.ExternalID == x.id || tr.ExternalID == strings.ReplaceAll(x.id, "-", "") {
			found = append(found, tr)
		}
	}
	if len(found) != 1 {
		e.t.Fatalf("the sandbox holds %d %s under PixGate's id %s, want 1: %+v", len(found), x.kind, x.id, found)
	}
	return found[0]
}

// quiet waits until the sandbox has sent every notification it had to
// send: none tried for quietFor.
func (e *env) quiet() {
	e.t.Helper()
	last, since := -1, time.Now()
	waitFor(e.t, "the sandbox's notifications to end", func() bool {
		if n := e.sb.Stats().NotificationAttempts; n != last {
			last, since = n, time.Now()
		}
		return time.Since(since) >= quietFor
	})
}

// proves reports whether err is a verdict of absence or a not-found: what
// a read that proves nothing must never be.
func proves(err error) bool {
	return errors.Is(err, providerclient.ErrProvedAbsent) || errors.Is(err, providerclient.ErrNotFound)
}
