package efi_test

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/efi"
	"github.com/pixgate/pixgate/providerclient/fleet"
	"github.com/pixgate/pixgate/providerclient/sandbox"
)

func sendTo(key string) providerclient.PayoutRequest {
	return providerclient.PayoutRequest{ID: newID(), Amount: 704,
		Recipient: providerclient.Recipient{Name: "X", KeyType: "EMAIL", Key: key, TaxID: "52998224725"}}
}

// A send is read by PixGate's id alone, before the provider's is known (a
// send whose answer was lost): found when Efí holds it, proved absent only
// by Efí's own "no such send" answer.
func TestReadSendByPixGateID(t *testing.T) {
	ctx := t.Context()
	e := newEnv(t, sandbox.Config{})
	req := sendTo("x@example.com")
	e.sb.SetFaults(sandbox.Faults{TimeoutRate: 1, Routes: []string{"/v3/gn/pix/{idEnvio}"}})
	if _, err := e.conn.SendPix(ctx, req); !errors.Is(err, providerclient.ErrUnknownOutcome) {
		t.Fatalf("send with its answer lost: %v", err)
	}
	e.sb.ResetFaults()
	got, err := e.conn.Read(ctx, providerclient.Ref{Kind: providerclient.KindPayout, ID: req.ID})
	if err != nil || got.ProviderID != strings.ReplaceAll(req.ID, "-", "") {
		t.Fatalf("read by PixGate's id of a send Efí holds: %+v, %v", got, err)
	}
	_, err = e.conn.Read(ctx, providerclient.Ref{Kind: providerclient.KindPayout, ID: newID()})
	if !errors.Is(err, providerclient.ErrProvedAbsent) || fleet.ReadVerdict(err) != fleet.MoveOn {
		t.Fatalf("read by PixGate's id of a send Efí does not hold: %v, want proved absent", err)
	}
	if _, err = e.conn.Read(ctx, providerclient.Ref{Kind: providerclient.KindPayout}); err == nil ||
		errors.Is(err, providerclient.ErrNotFound) || errors.Is(err, providerclient.ErrProvedAbsent) {
		t.Fatalf("read by no id at all: %v, want a refusal that proves nothing", err)
	}
}

// A resend refused because Efí holds the send already (409
// id_envio_duplicado), whose read-back fails, is an unknown outcome: never
// a refusal on which the send fails or moves to another provider.
func TestRefusedResendIsNeverProofOfNothingSent(t *testing.T) {
	ctx := t.Context()
	e := newEnv(t, sandbox.Config{})
	req := sendTo("x@example.com")
	e.sb.SetFaults(sandbox.Faults{TimeoutRate: 1, Routes: []string{"/v3/gn/pix/{idEnvio}"}})
	if _, err := e.conn.SendPix(ctx, req); !errors.Is(err, providerclient.ErrUnknownOutcome) {
		t.Fatalf("send with its answer lost: %v", err)
	}
	e.sb.SetFaults(sandbox.Faults{ErrorRate: 1, Routes: []string{"/v2/gn/pix/enviados/id-envio/{idEnvio}"}})
	_, err := e.conn.SendPix(ctx, req)
	if errors.Is(err, providerclient.ErrRejected) || !errors.Is(err, providerclient.ErrUnknownOutcome) {
		t.Fatalf("resend refused as a duplicate, read-back failing: %v, want an unknown outcome", err)
	}
	if fleet.NothingHeld(err) || fleet.PayoutVerdict(err, false) != fleet.Stay {
		t.Fatalf("verdict on %v: it must stay with Efí", err)
	}
	e.sb.ResetFaults()
	po, err := e.conn.SendPix(ctx, req)
	if err != nil || po.ProviderID != strings.ReplaceAll(req.ID, "-", "") {
		t.Fatalf("resend once reads work: %+v, %v", po, err)
	}
	if n := e.sb.Stats().PaymentsCreated; n != 1 {
		t.Fatalf("%d PIX sent, want 1", n)
	}
}

// A send Efí refuses for what it is (its key does not exist) is proved to
// have left nothing behind: read back under its idEnvio, absent.
func TestRefusedSendIsProvedAbsent(t *testing.T) {
	e := newEnv(t, sandbox.Config{})
	_, err := e.conn.SendPix(t.Context(), sendTo("inexistente@example.com"))
	if !errors.Is(err, providerclient.ErrRejected) || !fleet.NothingHeld(err) {
		t.Fatalf("send to a key the DICT does not have: %v, want a refusal proved to leave nothing", err)
	}
}

// failingReads answers 503 to every GET, as a provider whose reads fail.
type failingReads struct{ next http.RoundTripper }

func (f failingReads) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Method == http.MethodGet {
		return &http.Response{StatusCode: http.StatusServiceUnavailable, Body: io.NopCloser(strings.NewReader(`{}`)),
			Header: http.Header{"Content-Type": {"application/json"}}, Request: r}, nil
	}
	return f.next.RoundTrip(r)
}

// A charge created again under its txid (a retry after a lost answer)
// that Efí refuses because the charge is no longer ATIVA (paid
// meanwhile), whose read-back fails, is an unknown outcome, never a
// refusal on which PixGate would fail a charge the payer paid.
func TestRefusedChargeRepeatIsNeverFinalUnread(t *testing.T) {
	ctx := t.Context()
	e := newEnv(t, sandbox.Config{})
	req := providerclient.ChargeRequest{ID: newID(), Amount: 1500}
	ch, err := e.conn.CreateCharge(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.sb.PayCharge(ch.ProviderID, sandbox.Payer{}); err != nil {
		t.Fatal(err)
	}
	cfg := e.config()
	tlsCfg, err := cfg.TLS.ClientConfig()
	if err != nil {
		t.Fatal(err)
	}
	base := http.DefaultTransport.(*http.Transport).Clone()
	base.TLSClientConfig = tlsCfg
	cfg.HTTPClient = &http.Client{Transport: failingReads{next: base}}
	conn, err := efi.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	_, err = conn.CreateCharge(ctx, req)
	if errors.Is(err, providerclient.ErrRejected) || !errors.Is(err, providerclient.ErrUnknownOutcome) ||
		fleet.ChargeVerdict(err) != fleet.ReadFirst {
		t.Fatalf("repeat of a paid charge, reads failing: %v, want an unknown outcome", err)
	}
}
