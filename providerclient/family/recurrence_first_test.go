package family_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/providerclient/family"
	"github.com/pixgate/pixgate/providerclient/pix/brcode/brcodetest"
	"github.com/pixgate/pixgate/providerclient/sandbox"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// journey3 is a QR_WITH_PAYMENT recurrence whose first payment of 49.90
// PixGate names chargeID.
func journey3(id, chargeID string) providerclient.RecurrenceRequest {
	req := recurrenceRequest(id, recurrence.JourneyQRWithPayment, 0)
	req.FirstPayment, req.FirstPaymentID = money.FromReais(49, 90), chargeID
	return req
}

// Journey 3 through every layer: the first payment's transactionId comes
// back as FirstPaymentID, with the composite code; it reads as an
// ordinary charge, a repeat and a read answer the same, and the payer's
// approval pays it.
func TestRecurrenceFirstPayment(t *testing.T) {
	ctx := context.Background()
	p := newProvider(t, sandbox.Config{})
	cfg := p.config()
	cfg.Extensions = true
	conn := layered(cfg)
	const chargeID = "7d1c4e1a-9a51-4a4c-bd7c-1b2f0e6a3c55"
	rec, err := conn.CreateRecurrence(ctx, journey3("r-3", chargeID))
	if err != nil || rec.FirstPaymentID == "" || rec.Status != recurrence.RecurrenceCreated {
		t.Fatalf("create: %+v, %v", rec, err)
	}
	if code, err := brcodetest.Parse(rec.QRCode); err != nil || code.Amount != money.FromReais(49, 90) || code.RecurrenceLocation == "" ||
		!strings.HasSuffix(code.Location, "/"+rec.FirstPaymentID) {
		t.Fatalf("BR Code %+v, %v", code, err)
	}
	again, err := conn.CreateRecurrence(ctx, journey3("r-3", chargeID))
	if err != nil || !reflect.DeepEqual(again, rec) {
		t.Fatalf("repeat: %+v, %v; want %+v", again, err, rec)
	}
	read, err := conn.ReadRecurrence(ctx, providerclient.RecurrenceRef{ID: "r-3", ProviderID: rec.ProviderID})
	if err != nil || !reflect.DeepEqual(read, rec) {
		t.Fatalf("read: %+v, %v; want %+v", read, err, rec)
	}
	ref := providerclient.Ref{Kind: providerclient.KindCharge, ID: chargeID, ProviderID: rec.FirstPaymentID}
	ch, err := conn.Read(ctx, ref)
	if err != nil || ch.Status != providerclient.StatusPending || ch.Amount != money.FromReais(49, 90) || ch.ExternalID != chargeID {
		t.Fatalf("first payment: %+v, %v", ch, err)
	}
	if _, err := p.sb.ApproveRecurrence(rec.ProviderID, 0); err != nil {
		t.Fatal(err)
	}
	if ch, err := conn.Read(ctx, ref); err != nil || ch.Status != providerclient.StatusPaid {
		t.Fatalf("first payment after the approval: %+v, %v", ch, err)
	}
}

// An answer of journey 3 without its first payment's transactionId leaves
// PixGate unable to tell what the payer pays: ErrUnknownOutcome.
func TestRecurrenceFirstPaymentUnreadable(t *testing.T) {
	p := newProvider(t, sandbox.Config{})
	for _, body := range []string{
		`{"transactionId":"r","status":"CREATED","qrcode":"000201"}`,
		`{"transactionId":"r","status":"CREATED","qrcode":"000201","firstPayment":{"qrcode":"000201"}}`,
	} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != contract.PathRecurrence {
				p.sb.Handler().ServeHTTP(w, r)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(body))
		}))
		cfg := p.config()
		cfg.BaseURL, cfg.Extensions = srv.URL, true
		if _, err := family.NewConnector(cfg).CreateRecurrence(context.Background(), journey3("r-3", "c-3")); !errors.Is(err, providerclient.ErrUnknownOutcome) {
			t.Errorf("%s: %v", body, err)
		}
		srv.Close()
	}
}
