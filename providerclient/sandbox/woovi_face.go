package sandbox

import (
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"time"

	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/providerclient/wooviapi"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/money/due"
)

// wooviFace is Woovi's (OpenPix) API: charges, with a due date too
// (woovi_due.go), refunds of charges, PIX payments to a key (approved at
// once), Pix Automático's subscriptions (woovi_rec.go) and their
// installments' cobrs (woovi_cobr.go), reads of each,
// the account's balance, and webhooks to
// Config.WebhookURL signed with Config.SigningKey. The AppID
// (Config.ClientID) authenticates every call.
type wooviFace struct{ s *Sandbox }

func (f wooviFace) routes() []route {
	a := f.appID
	return []route{
		{"POST", wooviapi.PathCharge, false, a(f.postCharge)},
		{"GET", wooviapi.PathChargeByID, false, a(f.getCharge)},
		{"POST", wooviapi.PathChargeRefund, false, a(f.postRefund)},
		{"GET", wooviapi.PathRefundByID, false, a(f.getRefund)},
		{"POST", wooviapi.PathPayment, false, a(f.postPayment)},
		{"GET", wooviapi.PathPaymentByID, false, a(f.getPayment)},
		{"GET", wooviapi.PathAccounts, false, a(f.getAccounts)},
		{"GET", wooviapi.PathTransactions, false, a(f.listTransactions)},
		{"POST", wooviapi.PathSubscriptions, false, a(f.postSubscription)},
		{"GET", wooviapi.PathSubscriptionByID, false, a(f.getSubscription)},
		{"PUT", wooviapi.PathSubscriptionCancel, false, a(f.cancelSubscription)},
		{"GET", wooviapi.PathSubscriptionInstallments, false, a(f.listInstallments)},
		{"GET", wooviapi.PathInstallmentByID, false, a(f.getInstallment)},
		{"POST", wooviapi.PathInstallmentCobr, false, a(f.postCobr)},
	}
}

func (wooviFace) writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, wooviapi.Error{Error: msg})
}

// appID answers 401 unless the Authorization header is the AppID.
func (f wooviFace) appID(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !f.s.validClient(r.Header.Get("Authorization"), f.s.cfg.ClientSecret) {
			f.writeError(w, http.StatusUnauthorized, "invalid AppID")
			return
		}
		next(w, r)
	}
}

// sign is Woovi's webhook signature: RSA PKCS #1 v1.5 over SHA-256 of the
// body, base64, in x-webhook-signature.
func (f wooviFace) sign(body []byte) http.Header {
	sum := sha256.Sum256(body)
	sig, err := rsa.SignPKCS1v15(rand.Reader, f.s.cfg.SigningKey, crypto.SHA256, sum[:])
	if err != nil {
		return nil
	}
	return http.Header{http.CanonicalHeaderKey(wooviapi.HeaderSignature): {base64.StdEncoding.EncodeToString(sig)}}
}

// notification is Woovi's webhook of r's new state: a charge completed or
// expired, a payment confirmed or failed, a refund sent confirmed or
// rejected, a subscription's consent approved or rejected, an
// installment's cobr or try changed. Callers hold s.mu.
func (f wooviFace) notification(r *record, now time.Time) (string, []byte, []byte) {
	if r.postbackURL == "" {
		return "", nil, nil
	}
	switch r.kind {
	case contract.TypeRecurrence:
		return f.recurrenceNotification(r, now)
	case cycleKind:
		return f.cycleNotification(r, now)
	}
	var wh wooviapi.Webhook
	switch {
	case r.kind == contract.TypeReceivePix && r.status == contract.StatusPaid:
		c := f.chargeOf(r, now)
		wh = wooviapi.Webhook{Event: wooviapi.EventChargeCompleted, Charge: &c}
	case r.kind == contract.TypeReceivePix && r.statusAt(now) == contract.StatusExpired:
		c := f.chargeOf(r, now)
		wh = wooviapi.Webhook{Event: wooviapi.EventChargeExpired, Charge: &c}
	case r.kind == contract.TypePayment && r.status != contract.StatusProcessing:
		a := f.paymentOf(r)
		wh = wooviapi.Webhook{Event: wooviapi.EventMovementOK, Payment: &a.Payment, Transaction: a.Transaction}
		if r.status == contract.StatusFailed {
			wh.Event = wooviapi.EventMovementFailed
		}
	case r.kind == contract.TypeRefund && r.status != contract.StatusProcessing:
		cr := chargeRefundOf(r)
		wh = wooviapi.Webhook{Event: wooviapi.EventRefundSentOK, Refund: &cr}
		if r.status == contract.StatusFailed {
			wh.Event = wooviapi.EventRefundSentNo
		}
	default:
		return "", nil, nil
	}
	body, _ := json.Marshal(wh)
	return r.postbackURL, body, nil
}

func wooviTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02T15:04:05.000Z")
}

// chargeOf renders a charge. Callers hold s.mu.
func (f wooviFace) chargeOf(r *record, now time.Time) wooviapi.Charge {
	st := wooviapi.ChargeActive
	switch r.statusAt(now) {
	case contract.StatusPaid:
		st = wooviapi.ChargeCompleted
	case contract.StatusExpired:
		st = wooviapi.ChargeExpired
	}
	updated := r.created
	if !r.approved.IsZero() {
		updated = r.approved
	}
	c := wooviapi.Charge{Value: int64(r.amount), Status: st, CorrelationID: r.id, BrCode: r.qrcode, Comment: r.description,
		TransactionID: r.id, ExpiresIn: wooviapi.StringOrNum(r.expires.Sub(r.created) / time.Second),
		ExpiresDate: wooviTime(r.expires), CreatedAt: wooviTime(r.created), UpdatedAt: wooviTime(updated),
		Type: wooviapi.ChargeDynamic}
	if r.due != nil {
		// The charge keeps the value it was made with; what the payer paid
		// on the day is its PAYMENT's (the transaction list).
		c.Value, c.Type, c.DueDate = int64(r.due.Original), wooviapi.ChargeOverdue, wooviDate(r.due.Date)
	}
	return c
}

// wooviDate is a day as Woovi writes one: its start in Brasília, in UTC
// (2026-07-25T03:00:00.000Z).
func wooviDate(d due.Date) string { return wooviTime(d.AddDays(-1).End().Add(time.Nanosecond)) }

func (f wooviFace) paymentOf(r *record) wooviapi.PaymentAnswer {
	st := wooviapi.PaymentCreated // the document's Payment.status has no APPROVED
	switch r.status {
	case contract.StatusCompleted:
		st = wooviapi.PaymentConfirmed
	case contract.StatusFailed:
		st = wooviapi.PaymentFailed
	}
	kt := r.creditParty.KeyType
	if kt == "EVP" {
		kt = "RANDOM"
	}
	a := wooviapi.PaymentAnswer{Payment: wooviapi.Payment{Type: wooviapi.PaymentTypePixKey, Value: int64(r.amount),
		DestinationAlias: r.creditParty.Key, DestinationAliasType: kt, CorrelationID: r.id, Comment: r.description, Status: st}}
	a.Transaction = &wooviapi.PaymentTransaction{Value: int64(r.amount), EndToEndID: r.endToEndID, Time: wooviTime(r.approved)}
	if r.status == contract.StatusFailed {
		a.Transaction.ProviderRejectedReason = r.failure
	}
	return a
}

func chargeRefundOf(r *record) wooviapi.ChargeRefund {
	st := wooviapi.RefundInProcessing
	switch r.status {
	case contract.StatusCompleted:
		st = wooviapi.RefundConfirmed
	case contract.StatusFailed:
		st = wooviapi.RefundRejected
	}
	return wooviapi.ChargeRefund{Value: int64(r.amount), Status: st, CorrelationID: r.id, EndToEndID: r.endToEndID,
		Time: wooviTime(r.created), Comment: r.description}
}

func refundOf(r *record) wooviapi.Refund {
	st := wooviapi.RefundInProcessing
	switch r.status {
	case contract.StatusCompleted:
		st = wooviapi.RefundRefunded
	case contract.StatusFailed:
		st = wooviapi.RefundNotAccomplished
	}
	t := r.created
	if !r.approved.IsZero() {
		t = r.approved
	}
	return wooviapi.Refund{Value: int64(r.amount), Status: st, CorrelationID: r.id, RefundID: r.id,
		ReturnIdentification: r.endToEndID, Time: wooviTime(t), Comment: r.description}
}

// cents is a Woovi value: a positive whole number of centavos.
func cents(v int64) (money.Money, bool) { return money.Money(v), v > 0 }
