package woovi_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/sandbox"
	"github.com/pixgate/pixgate/providerclient/woovi"
	"github.com/pixgate/pixgate/providerclient/wooviapi"
	"github.com/pixgate/pixgate/providerclient/wooviapi/wooviapitest"
	"github.com/pixgate/pixgate/storage/money"
)

// env is a sandbox showing its woovi face, a webhook receiver that keeps
// bodies and headers, and a woovi connector that checks signatures.
type env struct {
	t    *testing.T
	sb   *sandbox.Sandbox
	srv  *httptest.Server
	conn providerclient.Connector
	v    *wooviapitest.Validator

	mu      sync.Mutex
	bodies  [][]byte
	headers []http.Header
}

func newEnv(t *testing.T) *env {
	t.Helper()
	e := &env{t: t}
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		e.mu.Lock()
		e.bodies, e.headers = append(e.bodies, b), append(e.headers, r.Header.Clone())
		e.mu.Unlock()
	}))
	t.Cleanup(hook.Close)
	e.sb = sandbox.New(sandbox.Config{Contract: sandbox.ContractWoovi, ClientID: "app-id", SettleDelay: 20 * time.Millisecond,
		NotifyMaxInterval: 50 * time.Millisecond, WebhookURL: hook.URL + "/webhooks/provider/token"})
	e.srv = httptest.NewServer(e.sb.Handler())
	t.Cleanup(e.srv.Close)
	t.Cleanup(e.sb.Close)
	var err error
	if e.v, err = wooviapitest.New(e.srv.URL); err != nil {
		t.Fatal(err)
	}
	// Every request and answer is checked against Woovi's document.
	hc := &http.Client{Transport: &wooviapitest.Transport{T: t, V: e.v, Next: http.DefaultTransport}}
	if e.conn, err = woovi.New(providerclient.Config{Kind: providerclient.KindWoovi, BaseURL: e.srv.URL, ClientID: "app-id",
		Timeout: time.Second, WebhookPublicKey: e.sb.WebhookPublicKeyPEM(), HTTPClient: hc}); err != nil {
		t.Fatal(err)
	}
	return e
}

func (e *env) webhook(i int) ([]byte, http.Header) {
	e.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		e.mu.Lock()
		if len(e.bodies) > i {
			b, h := e.bodies[i], e.headers[i]
			e.mu.Unlock()
			return b, h
		}
		e.mu.Unlock()
		if time.Now().After(deadline) {
			e.t.Fatalf("timed out waiting for webhook %d", i)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func newID() string { return uuid.Must(uuid.NewV7()).String() }

func TestChargeRefundAndSend(t *testing.T) {
	e := newEnv(t)
	ctx := t.Context()
	req := providerclient.ChargeRequest{ID: newID(), Amount: money.FromReais(25, 0), PayerQuestion: "pedido 42",
		Payer: providerclient.Party{Name: "Fulano de Tal", Document: "52998224725"}, Expiration: time.Hour}
	ch, err := e.conn.CreateCharge(ctx, req)
	if err != nil || ch.ProviderID != strings.ReplaceAll(req.ID, "-", "") || ch.BRCode == "" || ch.Status != providerclient.StatusPending || ch.Expiration != time.Hour {
		t.Fatalf("charge: %+v, %v", ch, err)
	}
	// Asked again (its answer lost): the same charge, made once.
	if again, err := e.conn.CreateCharge(ctx, req); err != nil || again.ProviderID != ch.ProviderID || again.BRCode != ch.BRCode {
		t.Fatalf("repeated charge: %+v, %v", again, err)
	}
	if n := e.sb.Stats().ChargesCreated; n != 1 {
		t.Fatalf("%d charges created, want 1", n)
	}
	if _, err := e.sb.PayCharge(ch.ProviderID, sandbox.Payer{}); err != nil {
		t.Fatal(err)
	}
	body, h := e.webhook(0)
	evs, err := e.conn.ParseNotification(h, body)
	if err != nil || len(evs) != 1 || evs[0].Kind != providerclient.KindCharge || evs[0].ProviderID != ch.ProviderID || evs[0].Status != providerclient.StatusPaid {
		t.Fatalf("charge webhook: %+v, %v", evs, err)
	}
	paid, err := e.conn.Read(ctx, providerclient.Ref{Kind: providerclient.KindCharge, ProviderID: ch.ProviderID})
	if err != nil || paid.Status != providerclient.StatusPaid || paid.Amount != req.Amount || paid.SettledAt.IsZero() {
		t.Fatalf("paid charge: %+v, %v", paid, err)
	}

	rreq := providerclient.RefundRequest{ID: newID(), Amount: money.FromReais(10, 0), Charge: providerclient.Ref{ProviderID: ch.ProviderID}}
	rf, err := e.conn.Refund(ctx, rreq)
	if err != nil || rf.ProviderID != rreq.ID || rf.Status != providerclient.StatusProcessing {
		t.Fatalf("refund: %+v, %v", rf, err)
	}
	if again, err := e.conn.Refund(ctx, rreq); err != nil || again.ProviderID != rf.ProviderID || e.sb.Stats().RefundsCreated != 1 {
		t.Fatalf("repeated refund: %+v, %v, %d made", again, err, e.sb.Stats().RefundsCreated)
	}
	body, h = e.webhook(1)
	if evs, err = e.conn.ParseNotification(h, body); err != nil || len(evs) != 1 || evs[0].Kind != providerclient.KindRefund || evs[0].Status != providerclient.StatusCompleted {
		t.Fatalf("refund webhook: %+v, %v", evs, err)
	}
	if got, err := e.conn.Read(ctx, providerclient.Ref{Kind: providerclient.KindRefund, ProviderID: rf.ProviderID}); err != nil ||
		got.Status != providerclient.StatusCompleted || got.Amount != rreq.Amount {
		t.Fatalf("refund read: %+v, %v", got, err)
	}

	preq := providerclient.PayoutRequest{ID: newID(), Amount: money.FromReais(7, 50),
		Recipient: providerclient.Recipient{Name: "Beltrano", KeyType: "EVP", Key: "123e4567-e89b-12d3-a456-426614174000", TaxID: "52998224725"}}
	po, err := e.conn.SendPix(ctx, preq)
	if err != nil || po.ProviderID != preq.ID || po.Status != providerclient.StatusProcessing {
		t.Fatalf("send: %+v, %v", po, err)
	}
	if again, err := e.conn.SendPix(ctx, preq); err != nil || again.ProviderID != po.ProviderID || e.sb.Stats().PaymentsCreated != 1 {
		t.Fatalf("repeated send: %+v, %v, %d sent", again, err, e.sb.Stats().PaymentsCreated)
	}
	body, h = e.webhook(2)
	if evs, err = e.conn.ParseNotification(h, body); err != nil || len(evs) != 1 || evs[0].Kind != providerclient.KindPayout || evs[0].Status != providerclient.StatusCompleted {
		t.Fatalf("send webhook: %+v, %v", evs, err)
	}
	if got, err := e.conn.Read(ctx, providerclient.Ref{Kind: providerclient.KindPayout, ProviderID: po.ProviderID}); err != nil ||
		got.Status != providerclient.StatusCompleted || got.EndToEndID == "" {
		t.Fatalf("send read: %+v, %v", got, err)
	}
	bal, err := e.conn.Balance(ctx)
	if want := sandbox.DefaultInitialBalance + req.Amount - rreq.Amount - preq.Amount; err != nil || bal.Available != want {
		t.Fatalf("balance %+v, %v; want %s", bal, err, want)
	}
	for _, route := range wooviapitest.Paths {
		if route == wooviapi.PathTransactions || strings.HasPrefix(route, wooviapi.PathSubscriptions) ||
			strings.HasPrefix(route, wooviapi.PathInstallments) {
			continue // TestStatement's, and the recurrence and cycle tests'
		}
		n := 0
		for k, c := range e.v.Checked() {
			if strings.HasSuffix(k, " "+route) {
				n += c
			}
		}
		if n == 0 {
			t.Errorf("no request to %s was checked against Woovi's document", route)
		}
	}
}

// A webhook is believed only with Woovi's signature (and then only as a
// hint: PixGate reads it back).
func TestWebhookSignature(t *testing.T) {
	e := newEnv(t)
	ch, err := e.conn.CreateCharge(t.Context(), providerclient.ChargeRequest{ID: newID(), Amount: 100})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.sb.PayCharge(ch.ProviderID, sandbox.Payer{}); err != nil {
		t.Fatal(err)
	}
	body, h := e.webhook(0)
	if _, err := e.conn.ParseNotification(h, body); err != nil {
		t.Fatalf("a genuine webhook: %v", err)
	}
	var ne *providerclient.NotificationError
	forged := append([]byte(nil), body...)
	forged[len(forged)-2] = ' '
	if _, err := e.conn.ParseNotification(h, forged); !errors.As(err, &ne) {
		t.Fatalf("a body changed after signing: %v", err)
	}
	if _, err := e.conn.ParseNotification(http.Header{}, body); !errors.As(err, &ne) || ne.Field != "x-webhook-signature" {
		t.Fatalf("an unsigned body: %v", err)
	}
}

func TestFaults(t *testing.T) {
	ctx := t.Context()
	t.Run("5xx is unavailable and nothing was made", func(t *testing.T) {
		e := newEnv(t)
		e.sb.SetFaults(sandbox.Faults{ErrorRate: 1, Routes: []string{"/api/v1/charge"}})
		if _, err := e.conn.CreateCharge(ctx, providerclient.ChargeRequest{ID: newID(), Amount: 100}); !errors.Is(err, providerclient.ErrUnavailable) ||
			e.sb.Stats().ChargesCreated != 0 {
			t.Fatalf("err %v", err)
		}
	})
	t.Run("an answer lost after the charge was made", func(t *testing.T) {
		e := newEnv(t)
		req := providerclient.ChargeRequest{ID: newID(), Amount: 100}
		e.sb.SetFaults(sandbox.Faults{TimeoutRate: 1, Routes: []string{"/api/v1/charge"}})
		if _, err := e.conn.CreateCharge(ctx, req); !errors.Is(err, providerclient.ErrUnknownOutcome) {
			t.Fatalf("timeout: %v", err)
		}
		e.sb.ResetFaults()
		if ch, err := e.conn.CreateCharge(ctx, req); err != nil || ch.ProviderID != strings.ReplaceAll(req.ID, "-", "") || e.sb.Stats().ChargesCreated != 1 {
			t.Fatalf("retry: %+v, %v", ch, err)
		}
	})
	t.Run("an answer lost after the PIX was sent", func(t *testing.T) {
		e := newEnv(t)
		req := providerclient.PayoutRequest{ID: newID(), Amount: 100,
			Recipient: providerclient.Recipient{KeyType: "EMAIL", Key: "x@example.com", TaxID: "52998224725"}}
		e.sb.SetFaults(sandbox.Faults{TimeoutRate: 1, Routes: []string{"/api/v1/payment"}})
		if _, err := e.conn.SendPix(ctx, req); !errors.Is(err, providerclient.ErrUnknownOutcome) {
			t.Fatalf("timeout: %v", err)
		}
		e.sb.ResetFaults()
		if po, err := e.conn.SendPix(ctx, req); err != nil || po.ProviderID != req.ID {
			t.Fatalf("retry: %+v, %v", po, err)
		}
		if n := e.sb.Stats().PaymentsCreated; n != 1 {
			t.Fatalf("%d PIX sent, want 1: never twice", n)
		}
	})
	t.Run("lost and duplicated webhooks", func(t *testing.T) {
		e := newEnv(t)
		e.sb.SetFaults(sandbox.Faults{DropNotifications: true})
		lost, _ := e.conn.CreateCharge(ctx, providerclient.ChargeRequest{ID: newID(), Amount: 100})
		if _, err := e.sb.PayCharge(lost.ProviderID, sandbox.Payer{}); err != nil {
			t.Fatal(err)
		}
		if got, err := e.conn.Read(ctx, providerclient.Ref{Kind: providerclient.KindCharge, ProviderID: lost.ProviderID}); err != nil || got.Status != providerclient.StatusPaid {
			t.Fatalf("read of a charge whose webhook was lost: %+v, %v", got, err)
		}
		e.sb.SetFaults(sandbox.Faults{DuplicateNotifications: 3})
		dup, _ := e.conn.CreateCharge(ctx, providerclient.ChargeRequest{ID: newID(), Amount: 100})
		if _, err := e.sb.PayCharge(dup.ProviderID, sandbox.Payer{}); err != nil {
			t.Fatal(err)
		}
		for i := range 3 {
			body, h := e.webhook(i)
			if evs, err := e.conn.ParseNotification(h, body); err != nil || len(evs) != 1 || evs[0].ProviderID != dup.ProviderID {
				t.Fatalf("copy %d: %+v, %v", i, evs, err)
			}
		}
	})
	t.Run("an unknown charge is not found", func(t *testing.T) {
		e := newEnv(t)
		if _, err := e.conn.Read(context.Background(), providerclient.Ref{Kind: providerclient.KindCharge, ProviderID: newID()}); !errors.Is(err, providerclient.ErrNotFound) {
			t.Fatalf("err %v", err)
		}
	})
}
