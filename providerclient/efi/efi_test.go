package efi_test

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/efi"
	"github.com/pixgate/pixgate/providerclient/sandbox"
	"github.com/pixgate/pixgate/storage/money"
)

// The whole life of a charge, a refund and a send through the efi contract,
// every request and answer checked against the BCB's specification.
func TestChargeRefundAndSend(t *testing.T) {
	e := newEnv(t, sandbox.Config{})
	ctx := t.Context()
	chargeID := newID()
	req := providerclient.ChargeRequest{ID: chargeID, Amount: money.FromReais(25, 0), PayerQuestion: "pedido 42",
		Payer: providerclient.Party{Name: "Fulano de Tal", Document: "52998224725"}}
	ch, err := e.conn.CreateCharge(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	txid := strings.ReplaceAll(chargeID, "-", "")
	if ch.ProviderID != txid || ch.BRCode == "" || ch.Status != providerclient.StatusPending || ch.ExpiresAt.Before(time.Now()) {
		t.Fatalf("charge: %+v", ch)
	}
	// The same charge asked again (its answer lost) is the same charge.
	again, err := e.conn.CreateCharge(ctx, req)
	if err != nil || again.ProviderID != ch.ProviderID || again.BRCode != ch.BRCode {
		t.Fatalf("repeated charge: %+v, %v", again, err)
	}
	if n := e.sb.Stats().ChargesCreated; n != 1 {
		t.Fatalf("%d charges created, want 1", n)
	}

	if _, err := e.sb.PayCharge(txid, sandbox.Payer{}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the charge's webhook", func() bool { return len(e.hook.bodies()) == 1 })
	if p := e.hook.paths[0]; p != "/webhooks/provider/token/pix" {
		t.Fatalf("webhook path %q: the BCB's callback is {webhookUrl}/pix", p)
	}
	evs, err := e.conn.ParseNotification(nil, e.hook.bodies()[0])
	if err != nil || len(evs) != 1 || evs[0].Kind != providerclient.KindCharge || evs[0].ProviderID != txid || evs[0].Status != providerclient.StatusPaid {
		t.Fatalf("notification: %+v, %v", evs, err)
	}
	paid, err := e.conn.Read(ctx, providerclient.Ref{Kind: providerclient.KindCharge, ID: chargeID, ProviderID: txid})
	if err != nil || paid.Status != providerclient.StatusPaid || paid.Amount != req.Amount || len(paid.EndToEndID) != 32 || paid.SettledAt.IsZero() {
		t.Fatalf("paid charge: %+v, %v", paid, err)
	}

	// Asked again once paid, the provider refuses to change it
	// (CobOperacaoInvalida) and the connector reads it back: still the one.
	if again, err := e.conn.CreateCharge(ctx, req); err != nil || again.ProviderID != txid || again.Status != providerclient.StatusPaid {
		t.Fatalf("charge asked again once paid: %+v, %v", again, err)
	}

	// A refund, by the end-to-end id of the PIX that paid the charge.
	refundID := newID()
	rreq := providerclient.RefundRequest{ID: refundID, Amount: money.FromReais(10, 0), Description: "devolução",
		Charge: providerclient.Ref{Kind: providerclient.KindCharge, ProviderID: txid, EndToEndID: paid.EndToEndID}}
	rf, err := e.conn.Refund(ctx, rreq)
	if err != nil || rf.ProviderID != strings.ReplaceAll(refundID, "-", "") || rf.Status != providerclient.StatusProcessing {
		t.Fatalf("refund: %+v, %v", rf, err)
	}
	if again, err := e.conn.Refund(ctx, rreq); err != nil || again.ProviderID != rf.ProviderID {
		t.Fatalf("repeated refund: %+v, %v", again, err)
	}
	waitFor(t, "the refund's webhook", func() bool { return len(e.hook.bodies()) == 2 })
	evs, err = e.conn.ParseNotification(nil, e.hook.bodies()[1])
	if err != nil || len(evs) != 1 || evs[0].Kind != providerclient.KindRefund || evs[0].ProviderID != rf.ProviderID || evs[0].Status != providerclient.StatusCompleted {
		t.Fatalf("refund notification: %+v, %v", evs, err)
	}
	ref := providerclient.Ref{Kind: providerclient.KindRefund, ID: refundID, ProviderID: rf.ProviderID,
		Charge: &providerclient.Ref{Kind: providerclient.KindCharge, ProviderID: txid, EndToEndID: paid.EndToEndID}}
	done, err := e.conn.Read(ctx, ref)
	if err != nil || done.Status != providerclient.StatusCompleted || done.Amount != rreq.Amount || !strings.HasPrefix(done.EndToEndID, "D") {
		t.Fatalf("refund read: %+v, %v", done, err)
	}
	if n := e.sb.Stats().RefundsCreated; n != 1 {
		t.Fatalf("%d refunds created, want 1", n)
	}

	// A PIX sent, asked twice: sent once.
	payoutID := newID()
	preq := providerclient.PayoutRequest{ID: payoutID, Amount: money.FromReais(7, 50), Description: "saque",
		Recipient: providerclient.Recipient{Name: "Beltrano", KeyType: "EMAIL", Key: "beltrano@example.com", TaxID: "52998224725"}}
	po, err := e.conn.SendPix(ctx, preq)
	if err != nil || po.ProviderID != strings.ReplaceAll(payoutID, "-", "") || po.Status != providerclient.StatusProcessing {
		t.Fatalf("send: %+v, %v", po, err)
	}
	if again, err := e.conn.SendPix(ctx, preq); err != nil || again.ProviderID != po.ProviderID {
		t.Fatalf("repeated send: %+v, %v", again, err)
	}
	if n := e.sb.Stats().PaymentsCreated; n != 1 {
		t.Fatalf("%d PIX sent, want 1", n)
	}
	waitFor(t, "the send's webhook", func() bool { return len(e.hook.bodies()) == 3 })
	evs, err = e.conn.ParseNotification(nil, e.hook.bodies()[2])
	if err != nil || len(evs) != 1 || evs[0].Kind != providerclient.KindPayout || evs[0].ProviderID != po.ProviderID || evs[0].Status != providerclient.StatusCompleted {
		t.Fatalf("send notification: %+v, %v", evs, err)
	}
	sent, err := e.conn.Read(ctx, providerclient.Ref{Kind: providerclient.KindPayout, ID: payoutID, ProviderID: po.ProviderID})
	if err != nil || sent.Status != providerclient.StatusCompleted || sent.Amount != preq.Amount || sent.EndToEndID == "" {
		t.Fatalf("send read: %+v, %v", sent, err)
	}

	bal, err := e.conn.Balance(ctx)
	want := sandbox.DefaultInitialBalance + req.Amount - rreq.Amount - preq.Amount
	if err != nil || bal.Available != want {
		t.Fatalf("balance: %+v, %v; want available %s", bal, err, want)
	}

	// Every route of the specification PixGate uses was checked.
	checked := e.v.Checked()
	for _, route := range []string{"PUT /cob/{txid}", "GET /cob/{txid}", "PUT /webhook/{chave}",
		"PUT /pix/{e2eid}/devolucao/{id}", "GET /pix/{e2eid}/devolucao/{id}"} {
		if checked[route] == 0 {
			t.Errorf("no request to %s was checked against the specification (checked: %v)", route, checked)
		}
	}
}

// A failed send is FAILED, with a reason, read back and notified.
func TestFailedSend(t *testing.T) {
	e := newEnv(t, sandbox.Config{})
	e.sb.SetFaults(sandbox.Faults{FailKeys: []string{"fails@example.com"}})
	po, err := e.conn.SendPix(t.Context(), providerclient.PayoutRequest{ID: newID(), Amount: 100,
		Recipient: providerclient.Recipient{Name: "X", KeyType: "EMAIL", Key: "fails@example.com", TaxID: "52998224725"}})
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the send's webhook", func() bool { return len(e.hook.bodies()) == 1 })
	got, err := e.conn.Read(t.Context(), providerclient.Ref{Kind: providerclient.KindPayout, ProviderID: po.ProviderID})
	if err != nil || got.Status != providerclient.StatusFailed || got.FailureReason == "" {
		t.Fatalf("failed send: %+v, %v", got, err)
	}
}

// The faults of a provider, through the efi contract.
func TestFaults(t *testing.T) {
	ctx := t.Context()
	t.Run("5xx is unavailable and nothing was made", func(t *testing.T) {
		e := newEnv(t, sandbox.Config{})
		e.sb.SetFaults(sandbox.Faults{ErrorRate: 1, Routes: []string{"/v2/cob/{txid}"}})
		_, err := e.conn.CreateCharge(ctx, providerclient.ChargeRequest{ID: newID(), Amount: 100})
		if !errors.Is(err, providerclient.ErrUnavailable) || e.sb.Stats().ChargesCreated != 0 {
			t.Fatalf("err %v, %d created", err, e.sb.Stats().ChargesCreated)
		}
	})
	t.Run("an answer lost after the charge was made", func(t *testing.T) {
		e := newEnv(t, sandbox.Config{})
		req := providerclient.ChargeRequest{ID: newID(), Amount: 100}
		e.sb.SetFaults(sandbox.Faults{TimeoutRate: 1, Routes: []string{"/v2/cob/{txid}"}})
		if _, err := e.conn.CreateCharge(ctx, req); !errors.Is(err, providerclient.ErrUnknownOutcome) {
			t.Fatalf("timeout: %v", err)
		}
		e.sb.ResetFaults()
		ch, err := e.conn.CreateCharge(ctx, req)
		if err != nil || ch.ProviderID != strings.ReplaceAll(req.ID, "-", "") || e.sb.Stats().ChargesCreated != 1 {
			t.Fatalf("retry: %+v, %v, %d created", ch, err, e.sb.Stats().ChargesCreated)
		}
	})
	t.Run("an answer lost after the PIX was sent", func(t *testing.T) {
		e := newEnv(t, sandbox.Config{})
		req := providerclient.PayoutRequest{ID: newID(), Amount: 100,
			Recipient: providerclient.Recipient{Name: "X", KeyType: "EMAIL", Key: "x@example.com", TaxID: "52998224725"}}
		e.sb.SetFaults(sandbox.Faults{TimeoutRate: 1, Routes: []string{"/v3/gn/pix/{idEnvio}"}})
		if _, err := e.conn.SendPix(ctx, req); !errors.Is(err, providerclient.ErrUnknownOutcome) {
			t.Fatalf("timeout: %v", err)
		}
		e.sb.ResetFaults()
		po, err := e.conn.SendPix(ctx, req)
		if err != nil || po.ProviderID != strings.ReplaceAll(req.ID, "-", "") {
			t.Fatalf("retry: %+v, %v", po, err)
		}
		if n := e.sb.Stats().PaymentsCreated; n != 1 {
			t.Fatalf("%d PIX sent, want 1: never twice", n)
		}
	})
	t.Run("lost and duplicated notifications", func(t *testing.T) {
		e := newEnv(t, sandbox.Config{})
		e.sb.SetFaults(sandbox.Faults{DropNotifications: true})
		lost, _ := e.conn.CreateCharge(ctx, providerclient.ChargeRequest{ID: newID(), Amount: 100})
		if _, err := e.sb.PayCharge(lost.ProviderID, sandbox.Payer{}); err != nil {
			t.Fatal(err)
		}
		// Nothing comes; a read still tells the truth.
		if got, err := e.conn.Read(ctx, providerclient.Ref{Kind: providerclient.KindCharge, ProviderID: lost.ProviderID}); err != nil || got.Status != providerclient.StatusPaid {
			t.Fatalf("read of a charge whose notification was lost: %+v, %v", got, err)
		}
		e.sb.SetFaults(sandbox.Faults{DuplicateNotifications: 3})
		dup, _ := e.conn.CreateCharge(ctx, providerclient.ChargeRequest{ID: newID(), Amount: 100})
		if _, err := e.sb.PayCharge(dup.ProviderID, sandbox.Payer{}); err != nil {
			t.Fatal(err)
		}
		waitFor(t, "three copies", func() bool { return len(e.hook.bodies()) == 3 })
		for _, b := range e.hook.bodies() {
			evs, err := e.conn.ParseNotification(nil, b)
			if err != nil || len(evs) != 1 || evs[0].ProviderID != dup.ProviderID {
				t.Fatalf("copy: %+v, %v", evs, err)
			}
		}
	})
}

// Without the client certificate the provider is not reached at all: the
// connector refuses to be built, and the face refuses the handshake.
func TestMutualTLSIsRequired(t *testing.T) {
	e := newEnv(t, sandbox.Config{})
	cfg := e.config()
	cfg.TLS.CertPEM, cfg.TLS.KeyPEM = "", ""
	if _, err := efi.New(cfg); err == nil {
		t.Fatal("an efi connector without a client certificate was built")
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM([]byte(e.tls.CACert))
	hc := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	resp, err := hc.Post(e.srv.URL+"/oauth/token", "application/json", strings.NewReader(`{"grant_type":"client_credentials"}`))
	if err == nil {
		resp.Body.Close()
		t.Fatalf("the efi face answered %d to a client without a certificate", resp.StatusCode)
	}
}

// Efí lists infractions (no webhook for them), takes a defense, and shows
// the MED return it made of an agreed one as a devolução of natureza
// MED_FRAUDE on the disputed PIX, read like a refund.
func TestInfractions(t *testing.T) {
	e := newEnv(t, sandbox.Config{})
	ctx := t.Context()
	chargeID := newID()
	if _, err := e.conn.CreateCharge(ctx, providerclient.ChargeRequest{ID: chargeID, Amount: money.FromReais(80, 0)}); err != nil {
		t.Fatal(err)
	}
	txid := strings.ReplaceAll(chargeID, "-", "")
	paid, err := e.sb.PayCharge(txid, sandbox.Payer{})
	if err != nil {
		t.Fatal(err)
	}
	opened, err := e.sb.OpenInfraction(txid, money.FromReais(30, 0), "golpe")
	if err != nil {
		t.Fatal(err)
	}
	list, err := e.conn.ListInfractions(ctx, time.Now().Add(-time.Hour))
	if err != nil || len(list) != 1 || list[0].ProviderID != opened.TransactionID || list[0].Status != providerclient.InfractionOpen ||
		list[0].Amount != money.FromReais(30, 0) || list[0].Charge.EndToEndID != paid.EndToEndID || list[0].Reason != "golpe" {
		t.Fatalf("list: %+v, %v", list, err)
	}
	ref := providerclient.InfractionRef{ProviderID: opened.TransactionID}
	if err := e.conn.DefendInfraction(ctx, ref, "o titular autorizou a compra"); err != nil {
		t.Fatal(err)
	}
	if err := e.conn.DefendInfraction(ctx, ref, "de novo"); !errors.Is(err, providerclient.ErrRejected) {
		t.Fatalf("a second defense: %v", err)
	}
	inf, err := e.conn.ReadInfraction(ctx, ref)
	if err != nil || inf.Status != providerclient.InfractionOpen || inf.Defense != "o titular autorizou a compra" {
		t.Fatalf("read: %+v, %v", inf, err)
	}
	if _, err := e.sb.CloseInfraction(opened.TransactionID, "AGREED", "procedente"); err != nil {
		t.Fatal(err)
	}
	inf, err = e.conn.ReadInfraction(ctx, ref)
	if err != nil || inf.Status != providerclient.InfractionAgreed || inf.Return == nil || inf.Return.Kind != providerclient.KindMedReturn {
		t.Fatalf("read after the close: %+v, %v", inf, err)
	}
	waitFor(t, "the MED return", func() bool {
		ret, err := e.conn.Read(ctx, providerclient.Ref{Kind: providerclient.KindMedReturn, ProviderID: inf.Return.ProviderID,
			Charge: &providerclient.Ref{EndToEndID: paid.EndToEndID}})
		return err == nil && ret.Kind == providerclient.KindMedReturn && ret.Status == providerclient.StatusCompleted &&
			ret.Amount == money.FromReais(30, 0)
	})
	if _, err := e.conn.ReadInfraction(ctx, providerclient.InfractionRef{ProviderID: "nope"}); !errors.Is(err, providerclient.ErrNotFound) {
		t.Fatalf("an unknown infraction: %v", err)
	}
	if _, err := e.conn.LookupKey(ctx, "EMAIL", "cliente@example.com"); !errors.Is(err, providerclient.ErrUnsupported) {
		t.Fatalf("lookup: %v", err)
	}
}

// The charge's devedor is who it expected, not who paid: a charge read
// back names who paid as Efí's list of charges does (pagador), so the
// account the PIX came from reaches consult and the postback as with the
// family, and the same-holder rule is told the document that paid.
func TestPaidChargeNamesWhoPaid(t *testing.T) {
	e := newEnv(t, sandbox.Config{})
	ctx := t.Context()
	id := newID()
	req := providerclient.ChargeRequest{ID: id, Amount: money.FromReais(10, 0), Payer: providerclient.Party{Name: "Fulano", Document: "52998224725"}}
	if _, err := e.conn.CreateCharge(ctx, req); err != nil {
		t.Fatal(err)
	}
	// Another charge created at the same time, paid by someone else: the
	// list names both.
	other := strings.ReplaceAll(newID(), "-", "")
	if _, err := e.conn.CreateCharge(ctx, providerclient.ChargeRequest{ID: other, Amount: money.FromReais(10, 0)}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.sb.PayCharge(other, sandbox.Payer{Name: "Terceiro", Document: "52998224725"}); err != nil {
		t.Fatal(err)
	}
	txid := strings.ReplaceAll(id, "-", "")
	if _, err := e.sb.PayCharge(txid, sandbox.Payer{Name: "Outra", Document: "111.444.777-35"}); err != nil {
		t.Fatal(err)
	}
	got, err := e.conn.Read(ctx, providerclient.Ref{Kind: providerclient.KindCharge, ID: id, ProviderID: txid})
	if err != nil || got.Status != providerclient.StatusPaid || len(got.EndToEndID) != 32 || !e.conn.Capabilities().PayerDocument {
		t.Fatalf("read: %+v, %v; capabilities %+v", got, err, e.conn.Capabilities())
	}
	if p := got.Payer; p == nil || p.Name != "Outra" || p.Document != "11144477735" {
		t.Fatalf("who paid: %+v", p)
	}
	if a := got.PayerAccount; a == nil || a.Name != "Outra" || a.Document != "11144477735" {
		t.Fatalf("the account the PIX came from: %+v", a)
	}
	if n := e.v.Checked()["GET /cob"]; n == 0 {
		t.Fatalf("the list of charges was not read through the BCB's specification: %v", e.v.Checked())
	}
	// A charge not yet paid is read without the list.
	pending := strings.ReplaceAll(newID(), "-", "")
	if _, err := e.conn.CreateCharge(ctx, providerclient.ChargeRequest{ID: pending, Amount: money.FromReais(1, 0)}); err != nil {
		t.Fatal(err)
	}
	before := e.v.Checked()["GET /cob"]
	if got, err := e.conn.Read(ctx, providerclient.Ref{Kind: providerclient.KindCharge, ProviderID: pending}); err != nil || got.Payer != nil ||
		e.v.Checked()["GET /cob"] != before {
		t.Fatalf("a pending charge: %+v, %v", got, err)
	}
}

// A configuration its caller already gave the defaults (as the fleet and
// the operator commands do) still gets the connector's own transport, with
// the account's client certificate: the process's shared transport has
// none, and every call failed the handshake.
func TestOwnTransportAfterDefaults(t *testing.T) {
	e := newEnv(t, sandbox.Config{})
	conn, err := efi.New(e.config().WithDefaults())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Balance(t.Context()); err != nil {
		t.Fatalf("balance over mutual TLS with a defaulted configuration: %v", err)
	}
}
