package family_test

import (
	"errors"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/family"
	"github.com/pixgate/pixgate/providerclient/pix/brcode/brcodetest"
	"github.com/pixgate/pixgate/providerclient/sandbox"
	"github.com/pixgate/pixgate/storage/money"
)

func TestChargeRefundConsultBalance(t *testing.T) {
	p := newProvider(t, sandbox.Config{PublicHost: "127.0.0.1:9090"})
	c := family.NewBase(p.config())
	ctx := t.Context()

	ch, err := c.CreateCharge(ctx, family.ChargeRequest{
		Amount: money.FromReais(15, 50), ExternalID: "chg-1",
		Payer: &family.Payer{Name: "Fulano", Document: "529.982.247-25"},
	})
	if err != nil {
		t.Fatal(err)
	}
	code, err := brcodetest.Parse(ch.QRCode)
	if err != nil || code.Amount != 1550 || ch.Status != "PENDING" || ch.Debtor.Document != "52998224725" ||
		ch.Calendar.Expiration != 3600 || len(ch.TransactionID) != 32 {
		t.Fatalf("charge %+v, code %+v, %v", ch, code, err)
	}
	if d := time.Until(ch.ExpiresAt); d < 59*time.Minute || d > 61*time.Minute {
		t.Fatalf("ExpiresAt %v is not about an hour away", ch.ExpiresAt)
	}
	if _, err := p.sb.PayCharge(ch.TransactionID, sandbox.Payer{}); err != nil {
		t.Fatal(err)
	}
	paid, err := c.ConsultTransaction(ctx, ch.TransactionID)
	if err != nil || paid.Status != "PAID" || paid.TransactionType != "RECEIVEPIX" || paid.Amount != 1550 ||
		paid.ExternalID != "chg-1" || paid.ApprovedAt().IsZero() || time.Since(paid.ApprovedAt()) > time.Minute {
		t.Fatalf("consult paid charge %+v, %v", paid, err)
	}

	rf, err := c.CreateRefund(ctx, family.RefundRequest{PixID: ch.TransactionID, Amount: 500, Description: "devolução", ExternalID: "rf-1"})
	if err != nil || rf.Status != "PROCESSING" || rf.PixID != ch.TransactionID || rf.Amount != 500 || rf.ExternalID != "rf-1" {
		t.Fatalf("refund %+v, %v", rf, err)
	}
	waitFor(t, "the refund to settle", func() bool {
		tx, err := c.ConsultTransaction(ctx, rf.TransactionID)
		if err != nil {
			t.Fatal(err)
		}
		return tx.Status == "COMPLETED"
	})
	done, _ := c.ConsultTransaction(ctx, rf.TransactionID)
	if done.TransactionType != "REFUND" || done.PixID != ch.TransactionID || done.EndToEndID[0] != 'D' ||
		done.StatusCode == nil || done.StatusCode.StatusID != 1 {
		t.Fatalf("settled refund %+v", done)
	}

	_, err = c.CreateRefund(ctx, family.RefundRequest{PixID: ch.TransactionID, Amount: 1051})
	if !errors.Is(err, providerclient.ErrRejected) {
		t.Fatalf("refund over the charge: %v", err)
	}

	bal, err := c.Balance(ctx)
	want := sandbox.DefaultInitialBalance + 1550 - 500
	if err != nil || bal.Balance != want || bal.Available != want || bal.Pending != 0 || bal.Currency != "BRL" {
		t.Fatalf("balance %+v, %v; want %s", bal, err, want)
	}
}

func TestPaymentAndConsult(t *testing.T) {
	p := newProvider(t, sandbox.Config{})
	c := family.NewBase(p.config())
	pay, err := c.CreatePayment(t.Context(), payment("wd-1"))
	if err != nil || pay.Status != "PROCESSING" || pay.Amount != 2510 || pay.CreditParty.KeyType != "EMAIL" {
		t.Fatalf("payment %+v, %v", pay, err)
	}
	waitFor(t, "settlement", func() bool {
		tx, err := c.ConsultTransaction(t.Context(), pay.TransactionID)
		return err == nil && tx.Status == "COMPLETED" && tx.EndToEndID != "" && !tx.ApprovedAt().IsZero()
	})
}

func TestConsultUnknownIsNotFound(t *testing.T) {
	p := newProvider(t, sandbox.Config{})
	c := layered(p.config()) // with the retry layer: a 404 is not retried
	_, err := c.Read(t.Context(), providerclient.Ref{ProviderID: "0123456789abcdefghijklmnopqrstuv"})
	var pe *providerclient.Error
	if !errors.Is(err, providerclient.ErrNotFound) || !errors.Is(err, providerclient.ErrRejected) ||
		!errors.As(err, &pe) || pe.StatusCode != 404 || pe.Op != "consult transaction" {
		t.Fatalf("err = %v, want not found", err)
	}
	if got := p.requests("/v2/consult-transaction"); got != 1 {
		t.Fatalf("%d consult requests, want 1: not found is not retried", got)
	}
}
