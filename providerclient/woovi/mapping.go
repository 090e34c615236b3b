package woovi

import (
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/wooviapi"
	"github.com/pixgate/pixgate/storage/money"
)

// chargeStatus maps Charge.status (ACTIVE, COMPLETED, EXPIRED).
func chargeStatus(s string) providerclient.Status {
	switch s {
	case wooviapi.ChargeActive:
		return providerclient.StatusPending
	case wooviapi.ChargeCompleted:
		return providerclient.StatusPaid
	case wooviapi.ChargeExpired:
		return providerclient.StatusExpired
	}
	return providerclient.Status(s)
}

// paymentStatus maps Payment.status (CREATED, CONFIRMED, FAILED, DENIED;
// APPROVED in the approval's answer).
func paymentStatus(s string) providerclient.Status {
	switch s {
	case wooviapi.PaymentCreated, wooviapi.PaymentApproved:
		return providerclient.StatusProcessing
	case wooviapi.PaymentConfirmed:
		return providerclient.StatusCompleted
	case wooviapi.PaymentFailed, wooviapi.PaymentDenied:
		return providerclient.StatusFailed
	}
	return providerclient.Status(s)
}

// refundStatus maps ChargeRefund.status (IN_PROCESSING, CONFIRMED,
// REJECTED) and Refund.status (IN_PROCESSING, REFUNDED, NOT_ACCOMPLISHED).
func refundStatus(s string) providerclient.Status {
	switch s {
	case wooviapi.RefundInProcessing:
		return providerclient.StatusProcessing
	case wooviapi.RefundConfirmed, wooviapi.RefundRefunded:
		return providerclient.StatusCompleted
	case wooviapi.RefundRejected, wooviapi.RefundNotAccomplished:
		return providerclient.StatusFailed
	}
	return providerclient.Status(s)
}

// aliasType is Woovi's destinationAliasType for a canonical key type:
// RANDOM for EVP.
func aliasType(keyType string) string {
	if keyType == "EVP" {
		return "RANDOM"
	}
	return keyType
}

func parseTime(s string) time.Time {
	t, _ := time.Parse(time.RFC3339Nano, s)
	return t
}

func chargeTransaction(c wooviapi.Charge) providerclient.Transaction {
	t := providerclient.Transaction{Kind: providerclient.KindCharge, ProviderID: c.CorrelationID, ExternalID: c.CorrelationID,
		Status: chargeStatus(c.Status), Amount: money.Money(c.Value), Description: c.Comment}
	if t.Status == providerclient.StatusPaid {
		t.SettledAt = parseTime(c.UpdatedAt)
	}
	return t
}

func paymentTransaction(a wooviapi.PaymentAnswer) providerclient.Transaction {
	p := a.Payment
	t := providerclient.Transaction{Kind: providerclient.KindPayout, ProviderID: p.CorrelationID, ExternalID: p.CorrelationID,
		Status: paymentStatus(p.Status), Amount: money.Money(p.Value), Description: p.Comment}
	if tx := a.Transaction; tx != nil {
		t.EndToEndID, t.SettledAt = tx.EndToEndID, parseTime(tx.Time)
		if t.Status == providerclient.StatusFailed {
			t.FailureReason = tx.ProviderRejectedReason
		}
	}
	if t.Status == providerclient.StatusFailed && t.FailureReason == "" {
		t.FailureReason = "the payment " + p.Status
	}
	return t
}

func refundTransaction(r wooviapi.Refund) providerclient.Transaction {
	t := providerclient.Transaction{Kind: providerclient.KindRefund, ProviderID: r.CorrelationID, ExternalID: r.CorrelationID,
		Status: refundStatus(r.Status), Amount: money.Money(r.Value), EndToEndID: r.ReturnIdentification, Description: r.Comment}
	if t.Status == providerclient.StatusCompleted {
		t.SettledAt = parseTime(r.Time)
	}
	if t.Status == providerclient.StatusFailed {
		t.FailureReason = "the refund was " + r.Status
	}
	return t
}
