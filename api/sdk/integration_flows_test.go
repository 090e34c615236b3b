package pixgate_test

import (
	"context"
	"errors"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"

	pixgate "github.com/pixgate/pixgate/api/sdk"
)

// One test, its steps in order: each depends on the balance the one before
// left.
func TestAgainstPixGate(t *testing.T) {
	l := newLive(t)
	ctx := context.Background()
	hook := l.postbacks()

	t.Run("v1", func(t *testing.T) {
		bal, err := l.c.Balance(ctx)
		if err != nil {
			t.Fatal(err)
		}
		same(t, "available", bal.Available, "197143.76")

		req := pixgate.ChargeRequest{Amount: pixgate.MustAmount("12345.67"), PostbackURL: hook.URL + "/pix",
			Payer: pixgate.Payer{Name: "Fulano de Tal", Document: "529.982.247-25"}}
		ch, err := l.c.CreateCharge(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(ch.ExternalID, "chg-") || ch.Replayed || ch.Status != pixgate.ChargePending || ch.QRCode == "" {
			t.Fatalf("charge %+v", ch)
		}
		same(t, "amount", ch.Amount, "12345.67")
		same(t, "net_amount", ch.NetAmount, "12160.48")
		req.ExternalID = ch.ExternalID // the same request again is the same charge
		again, err := l.c.CreateCharge(ctx, req)
		if err != nil || !again.Replayed || again.ID != ch.ID {
			t.Fatalf("replay = %+v, %v", again, err)
		}

		l.control("/sandbox/charges/"+ch.PixID+"/pay", "")
		l.eventually("charge PAID", func() bool {
			got, err := l.c.Charge(ctx, ch.ExternalID)
			return err == nil && got.Status == pixgate.ChargePaid
		})
		pb := hook.wait(l, pixgate.TypeReceivePix, pixgate.ChargePaid, ch.PixID)
		if pb.TransactionID != ch.PixID || pb.ID != ch.ID {
			t.Fatalf("postback %+v", pb)
		}
		same(t, "postback amount", pb.Amount, "12345.67")
		same(t, "postback net_amount", pb.NetAmount, "12160.48")

		found := false
		for c, err := range l.c.AllCharges(ctx, pixgate.ListParams{Status: pixgate.ChargePaid, PerPage: 1}) {
			if err != nil {
				t.Fatal(err)
			}
			found = found || c.ID == ch.ID
		}
		if !found {
			t.Fatal("the paid charge is not in the list")
		}

		// A refund pays the cash-out fee: R$ 1.00 back costs R$ 1.50.
		f, err := l.c.RefundCharge(ctx, ch.ExternalID, pixgate.RefundRequest{Amount: pixgate.MustAmount("1.00")})
		if err != nil || !strings.HasPrefix(f.ExternalID, "rfd-") || f.ChargeID != ch.ID {
			t.Fatalf("v1 refund %+v, %v", f, err)
		}
		same(t, "refund total", f.Total, "1.50")
		hook.wait(l, pixgate.TypeRefund, pixgate.TransferCompleted, ch.PixID)
		refunds, err := l.c.ChargeRefunds(ctx, ch.ID, pixgate.ListParams{})
		if err != nil || len(refunds.Data) != 1 || refunds.Data[0].Status != pixgate.TransferCompleted {
			t.Fatalf("the charge's refunds: %+v, %v", refunds, err)
		}

		w, err := l.c.CreateWithdrawal(ctx, pixgate.WithdrawalRequest{Amount: pixgate.MustAmount("1000.01"),
			CreditParty: pixgate.CreditParty{Name: "Beltrano", KeyType: "EMAIL", Key: "beltrano@example.com", TaxID: "52998224725"}})
		if err != nil || !strings.HasPrefix(w.ExternalID, "wdr-") {
			t.Fatalf("withdrawal %+v, %v", w, err)
		}
		same(t, "withdrawal total", w.Total, "1000.51")

		_, err = l.c.CreateCharge(ctx, pixgate.ChargeRequest{Amount: 100, Payer: pixgate.Payer{Name: "Sem Documento"}})
		validationError(t, err, "payer.document")
		var pe *pixgate.Error
		if _, err := l.c.Charge(ctx, "no-such-charge"); !errors.As(err, &pe) || pe.Code != "not_found" || pe.RequestID == "" {
			t.Fatalf("unknown charge: %v", err)
		}
	})

	t.Run("v2", func(t *testing.T) {
		v2 := l.c.V2()
		var wg sync.WaitGroup
		for range 4 { // concurrent first calls share one token
			wg.Add(1)
			go func() {
				defer wg.Done()
				if b, err := v2.Balance(ctx); err != nil {
					t.Error(err)
				} else {
					same(t, "v2 available", b.Available, "208302.23") // 197,143.76 + 12,160.48 − 1.50 − 1,000.51
				}
			}()
		}
		wg.Wait()

		ch, err := v2.CreateCharge(ctx, pixgate.ChargeRequest{Amount: pixgate.MustAmount("15.50"), PostbackURL: hook.URL + "/pix",
			Payer: pixgate.Payer{Name: "Fulano de Tal", Document: "52998224725"}, Expiration: 900, PayerQuestion: "Pedido SDK"})
		if err != nil {
			t.Fatal(err)
		}
		if ch.Calendar.Expiration != 900 {
			t.Fatalf("calendar.expiration = %d, want the 900 asked for", ch.Calendar.Expiration)
		}
		same(t, "qrcode amount", ch.Amount, "15.50")
		l.control("/sandbox/charges/"+ch.TransactionID+"/pay", "")
		var paid *pixgate.Transaction
		l.eventually("v2 charge PAID", func() bool {
			tx, err := v2.Consult(ctx, ch.TransactionID)
			paid = tx
			return err == nil && tx.Status == pixgate.ChargePaid
		})
		// What the provider told with the payment, and the payer's question.
		if paid.Description != "Pedido SDK" || paid.DebitParty == nil || paid.DebitParty.Bank == "" || paid.DebitParty.TaxID == "" {
			t.Fatalf("consult of the paid charge: %+v, debitParty %+v", paid, paid.DebitParty)
		}
		refund, err := v2.CreateRefund(ctx, pixgate.RefundRequest{PixID: ch.TransactionID, Amount: pixgate.MustAmount("0.10")})
		if err != nil || refund.PixID != ch.TransactionID {
			t.Fatalf("refund %+v, %v", refund, err)
		}
		tx, err := v2.Consult(ctx, refund.TransactionID)
		if err != nil || tx.TransactionType != pixgate.TypeRefund || !strings.HasPrefix(tx.ExternalID, "rfd-") {
			t.Fatalf("refund consult %+v, %v", tx, err)
		}
		same(t, "refund amount", tx.Amount, "0.10")
		// The refund's postback goes to the charge's postbackUrl.
		if pb := hook.wait(l, pixgate.TypeRefund, pixgate.TransferCompleted, ch.TransactionID); pb.PixID != ch.TransactionID {
			t.Fatalf("refund postback %+v", pb)
		}

		pay, err := v2.CreatePayment(ctx, pixgate.WithdrawalRequest{Amount: pixgate.MustAmount("0.07"),
			CreditParty: pixgate.CreditParty{Name: "Beltrano", KeyType: "EVP", Key: "123e4567-e12b-12d1-a456-426655440000", TaxID: "11222333000181"}})
		if err != nil {
			t.Fatal(err)
		}
		same(t, "payment amount", pay.Amount, "0.07")
		_, err = v2.CreateCharge(ctx, pixgate.ChargeRequest{Amount: 100, Payer: pixgate.Payer{Name: "Sem Documento"}})
		validationError(t, err, "payer.document")
		if n := l.counter.path("/v2/oauth/token"); n != 1 {
			t.Fatalf("%d tokens bought; one serves every call", n)
		}
	})

	// The provider down at the checkout: PixGate answers 503 with
	// Retry-After, the client waits and sends the same charge again (the
	// same external_id), which is issued once the provider is back.
	t.Run("503 retried with the same external_id", func(t *testing.T) {
		l.control("/sandbox/faults", `{"outage": true, "routes": ["/v2/pix/qrcode"]}`)
		defer l.control("/sandbox/faults", `{}`)
		var once sync.Once
		l.counter.watch(func(status int) {
			if status == http.StatusServiceUnavailable {
				once.Do(func() { l.control("/sandbox/faults", `{}`) })
			}
		})
		defer l.counter.watch(nil)
		ch, err := l.c.CreateCharge(ctx, pixgate.ChargeRequest{Amount: pixgate.MustAmount("20.00"),
			Payer: pixgate.Payer{Name: "Fulano de Tal", Document: "52998224725"}})
		if err != nil {
			t.Fatal(err)
		}
		if l.counter.status(http.StatusServiceUnavailable) == 0 || ch.Status != pixgate.ChargePending || ch.QRCode == "" || !ch.Replayed {
			t.Fatalf("charge %+v after %d answers 503", ch, l.counter.status(http.StatusServiceUnavailable))
		}
	})

	// Over the key's rate limit the client waits what Retry-After says.
	t.Run("429 honoured", func(t *testing.T) {
		rate, _ := strconv.Atoi(os.Getenv("PIXGATE_SDK_TEST_V1_RATE"))
		if rate <= 0 || rate > 200 {
			t.Skip("PIXGATE_SDK_TEST_V1_RATE not set to a small limit")
		}
		for i := 0; l.counter.status(http.StatusTooManyRequests) == 0; i++ {
			if i > 2*rate {
				t.Fatalf("no 429 after %d calls", i)
			}
			if _, err := l.c.Balance(ctx); err != nil {
				t.Fatalf("call %d: %v", i, err)
			}
		}
	})
}
