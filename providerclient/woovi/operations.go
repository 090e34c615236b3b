package woovi

import (
	"cmp"
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/wooviapi"
	"github.com/pixgate/pixgate/storage/money"
)

func (c *connector) CreateCharge(ctx context.Context, req providerclient.ChargeRequest) (*providerclient.Charge, error) {
	op := providerclient.OpCharge
	corr := chargeCorrelationID(req.ID)
	in := wooviapi.ChargeRequest{CorrelationID: corr, Value: int64(req.Amount), Comment: truncate(req.PayerQuestion, 140),
		ExpiresIn: int(req.Expiration / time.Second)}
	if p := req.Payer; p.Name != "" {
		in.Customer = &wooviapi.Customer{Name: p.Name, TaxID: p.Document, Email: p.Email}
	}
	if req.Due != nil {
		if err := dueCharge(&in, req, time.Now()); err != nil {
			return nil, err
		}
	}
	res, err := c.call(ctx, op, http.MethodPost, wooviapi.PathCharge, in)
	if err != nil {
		return nil, err
	}
	var ans wooviapi.ChargeAnswer
	if err := decode(op, res, &ans); err != nil {
		if !errors.Is(err, providerclient.ErrRejected) || errors.Is(err, providerclient.ErrNotFound) {
			return nil, err
		}
		// Refused, maybe because a charge under this correlationID (PixGate's)
		// exists, created by an earlier try whose answer was lost: read it
		// back. One for the same value is this one; one for another value
		// keeps the refusal; a read that fails leaves the outcome unknown,
		// never a refusal to act on.
		refusal := err
		again, err := providerclient.AfterRefusal(ctx, refusal, func(ctx context.Context) (*wooviapi.ChargeAnswer, error) {
			var a wooviapi.ChargeAnswer
			if err := c.get(ctx, "/api/v1/charge/"+escape(corr), &a); err != nil {
				return nil, err
			}
			return &a, nil
		})
		if err != nil {
			return nil, err
		}
		if again.Charge.Value != in.Value {
			return nil, refusal
		}
		ans = *again
	}
	ch := ans.Charge
	if ch.BrCode == "" {
		ch.BrCode = ans.BrCode
	}
	if ch.CorrelationID == "" || ch.BrCode == "" {
		return nil, &providerclient.Error{Op: op, Kind: providerclient.ErrUnknownOutcome, StatusCode: res.Status,
			Message: "answer without correlationID or brCode"}
	}
	out := &providerclient.Charge{ProviderID: ch.CorrelationID, BRCode: ch.BrCode, Status: chargeStatus(ch.Status),
		Expiration: time.Duration(ch.ExpiresIn) * time.Second}
	if t, err := time.Parse(time.RFC3339Nano, ch.ExpiresDate); err == nil {
		out.ExpiresAt = t
	} else if req.Due != nil {
		out.ExpiresAt = lastMoment(*req.Due)
	} else if ch.ExpiresIn > 0 {
		out.ExpiresAt = time.Now().Add(out.Expiration)
	}
	return out, nil
}

func (c *connector) SendPix(ctx context.Context, req providerclient.PayoutRequest) (*providerclient.Payout, error) {
	op := providerclient.OpPayout
	in := wooviapi.PaymentRequest{Type: wooviapi.PaymentTypePixKey, Value: int64(req.Amount), DestinationAlias: req.Recipient.Key,
		DestinationAliasType: aliasType(req.Recipient.KeyType), CorrelationID: req.ID, Comment: truncate(req.Description, 140),
		AutoApprove: true}
	res, err := c.call(ctx, op, http.MethodPost, wooviapi.PathPayment, in)
	if err != nil {
		return nil, err
	}
	var ans wooviapi.PaymentAnswer
	if err := decode(op, res, &ans); err != nil {
		if !errors.Is(err, providerclient.ErrRejected) {
			return nil, err
		}
		// Refused, maybe because a payment under this correlationID exists
		// (an earlier try whose answer was lost): never send twice, and
		// never take a refusal for proof of nothing sent.
		t, err := providerclient.AfterRefusal(ctx, err, func(ctx context.Context) (*providerclient.Transaction, error) {
			return c.readPayment(ctx, req.ID)
		})
		if err != nil {
			return nil, err
		}
		return &providerclient.Payout{ProviderID: t.ProviderID, Status: t.Status}, nil
	}
	return &providerclient.Payout{ProviderID: req.ID, Status: paymentStatus(ans.Payment.Status)}, nil
}

func (c *connector) Refund(ctx context.Context, req providerclient.RefundRequest) (*providerclient.Refund, error) {
	op := providerclient.OpRefund
	if req.Charge.ProviderID == "" {
		// Nothing can be refunded without it, now or by an earlier try.
		return nil, &providerclient.Error{Op: op, Kind: providerclient.ErrRejected, Absent: true,
			Message: "the refunded charge's correlationID is missing"}
	}
	in := wooviapi.RefundRequest{CorrelationID: req.ID, Value: int64(req.Amount), Comment: truncate(req.Description, 140)}
	res, err := c.call(ctx, op, http.MethodPost, "/api/v1/charge/"+escape(req.Charge.ProviderID)+"/refund", in)
	if err != nil {
		return nil, err
	}
	var ans wooviapi.ChargeRefundAnswer
	if err := decode(op, res, &ans); err != nil {
		if !errors.Is(err, providerclient.ErrRejected) {
			return nil, err
		}
		// A refund already under this correlationID is this one: never
		// refund twice.
		t, err := providerclient.AfterRefusal(ctx, err, func(ctx context.Context) (*providerclient.Transaction, error) {
			return c.readRefund(ctx, req.ID)
		})
		if err != nil {
			return nil, err
		}
		if t.Amount != req.Amount {
			return nil, &providerclient.Error{Op: op, Kind: providerclient.ErrUnknownOutcome,
				Message: "the provider holds a refund under this correlationID for another amount"}
		}
		return &providerclient.Refund{ProviderID: req.ID, Status: t.Status}, nil
	}
	return &providerclient.Refund{ProviderID: req.ID, Status: refundStatus(ans.Refund.Status)}, nil
}

// Read reads a transaction by its correlationID: the provider's id, which
// is PixGate's (ref.ID; for a charge in the form chargeCorrelationID
// gives it) when the ref has none yet.
func (c *connector) Read(ctx context.Context, ref providerclient.Ref) (*providerclient.Transaction, error) {
	id := cmp.Or(ref.ProviderID, ref.ID)
	if id == "" {
		return nil, &providerclient.Error{Op: providerclient.OpRead, Kind: providerclient.ErrRejected,
			Message: "neither the provider's id nor PixGate's names the " + string(ref.Kind)}
	}
	switch ref.Kind {
	case providerclient.KindCharge:
		return c.readCharge(ctx, ref)
	case providerclient.KindPayout:
		return c.readPayment(ctx, id)
	case providerclient.KindRefund:
		return c.readRefund(ctx, id)
	}
	return nil, &providerclient.Error{Op: providerclient.OpRead, Kind: providerclient.ErrRejected, Message: "unknown kind " + string(ref.Kind)}
}

func (c *connector) readPayment(ctx context.Context, id string) (*providerclient.Transaction, error) {
	var ans wooviapi.PaymentAnswer
	if err := c.get(ctx, "/api/v1/payment/"+escape(id), &ans); err != nil {
		return nil, err
	}
	t := paymentTransaction(ans)
	return &t, nil
}

func (c *connector) readRefund(ctx context.Context, id string) (*providerclient.Transaction, error) {
	var ans wooviapi.RefundAnswer
	if err := c.get(ctx, "/api/v1/refund/"+escape(id), &ans); err != nil {
		return nil, err
	}
	t := refundTransaction(ans.PixTransactionRefund)
	return &t, nil
}

// Balance is the default account's: available, and blocked as pending.
func (c *connector) Balance(ctx context.Context) (*providerclient.Balance, error) {
	res, err := c.call(ctx, providerclient.OpBalance, http.MethodGet, wooviapi.PathAccounts, nil)
	if err != nil {
		return nil, err
	}
	var ans wooviapi.AccountsAnswer
	if err := decode(providerclient.OpBalance, res, &ans); err != nil {
		return nil, err
	}
	for _, a := range ans.Accounts {
		if a.IsDefault || len(ans.Accounts) == 1 {
			return &providerclient.Balance{Available: money.Money(a.Balance.Available), Pending: money.Money(a.Balance.Blocked)}, nil
		}
	}
	return nil, &providerclient.Error{Op: providerclient.OpBalance, Kind: providerclient.ErrUnknownOutcome, StatusCode: res.Status,
		Message: "no default account in the answer"}
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		return string(r[:n])
	}
	return s
}
