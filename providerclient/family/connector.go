package family

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/contract"
)

// connector is the family's legacy /v2 contract as a Connector: one HTTP
// client (NewBase) and the translation between the contract's shapes and
// PixGate's.
type connector struct {
	name string
	c    Client
	base *baseClient
	// ext: the provider serves PixGate's extensions (Config.Extensions).
	ext bool
}

// NewConnector returns the family contract's connector for cfg, without the
// retry, breaker and metrics layers (providerclient.Wrap adds them).
func NewConnector(cfg providerclient.Config) providerclient.Connector {
	cfg = cfg.WithDefaults()
	base := NewBase(cfg).(*baseClient)
	return &connector{name: cfg.Name, c: base, base: base, ext: cfg.Extensions}
}

func (f *connector) Name() string { return f.name }
func (f *connector) Kind() string { return providerclient.KindFamily }

func (f *connector) Capabilities() providerclient.Capabilities {
	return providerclient.Capabilities{Charges: true, Payouts: true, Refunds: true, Reads: true, Balance: true, Notifications: true,
		PayerDocument: true, Infractions: f.ext, InfractionNotifications: f.ext, InfractionList: f.ext, KeyLookup: f.ext,
		Statement: f.ext, StatementBalances: f.ext, DueCharges: f.ext, Recurrences: f.ext, Journeys: f.journeys()}
}

func (f *connector) CreateCharge(ctx context.Context, req providerclient.ChargeRequest) (*providerclient.Charge, error) {
	in := ChargeRequest{
		Amount: req.Amount, ExternalID: req.ID, PostbackURL: req.NotifyURL, PayerQuestion: req.PayerQuestion,
		Payer:      &Payer{Name: req.Payer.Name, Document: req.Payer.Document, Email: req.Payer.Email},
		Expiration: int(req.Expiration / time.Second),
	}
	if req.Due != nil {
		if err := f.dueCharge(req, &in); err != nil {
			return nil, err
		}
	}
	out, err := f.c.CreateCharge(ctx, in)
	if err != nil {
		return nil, err
	}
	if out.TransactionID == "" || out.QRCode == "" {
		return nil, &providerclient.Error{Op: providerclient.OpCharge, Kind: providerclient.ErrUnknownOutcome,
			StatusCode: http.StatusOK, Message: "answer without transactionId or qrcode"}
	}
	return &providerclient.Charge{ProviderID: out.TransactionID, BRCode: out.QRCode, ExpiresAt: out.ExpiresAt,
		Expiration: time.Duration(out.Calendar.Expiration) * time.Second, Status: status(out.Status, providerclient.StatusPending)}, nil
}

func (f *connector) SendPix(ctx context.Context, req providerclient.PayoutRequest) (*providerclient.Payout, error) {
	out, res, err := f.base.createPayment(ctx, PaymentRequest{
		Amount: req.Amount, ExternalID: req.ID, Description: req.Description, PostbackURL: req.NotifyURL,
		CreditParty: CreditParty{Name: req.Recipient.Name, KeyType: req.Recipient.KeyType, Key: req.Recipient.Key, TaxID: req.Recipient.TaxID},
	})
	if err != nil {
		return nil, refusedForGood(err, res)
	}
	return &providerclient.Payout{ProviderID: out.TransactionID, Status: status(out.Status, providerclient.StatusProcessing)}, nil
}

func (f *connector) Refund(ctx context.Context, req providerclient.RefundRequest) (*providerclient.Refund, error) {
	out, res, err := f.base.createRefund(ctx, RefundRequest{
		PixID: req.Charge.ProviderID, Amount: req.Amount, Description: req.Description, ExternalID: req.ID, PostbackURL: req.NotifyURL,
	})
	if err != nil {
		return nil, refusedForGood(err, res)
	}
	return &providerclient.Refund{ProviderID: out.TransactionID, Status: status(out.Status, providerclient.StatusProcessing)}, nil
}

// refusedForGood marks the family's own refusal of a payment or a refund
// (res, the answer to it) as leaving nothing behind: the contract answers a
// repeated external_id with the payment made the first time, never with a
// refusal, so its refusal (a 4xx in its error shape, whose statusCode is
// the answer's status) means the provider holds nothing under PixGate's
// id. A 404 proves nothing (a wrong path answers it too), nor does a 4xx
// in another shape: a proxy's or a gateway's, which never reached a
// provider that may hold an earlier try.
func refusedForGood(err error, res *providerclient.Answer) error {
	if errors.Is(err, providerclient.ErrRejected) && !errors.Is(err, providerclient.ErrNotFound) && ownRefusal(res) {
		return providerclient.Absent(err)
	}
	return err
}

// ownRefusal reports whether res is an answer in the family's error shape,
// {"statusCode": n, "message": "..."} with n its own status.
func ownRefusal(res *providerclient.Answer) bool {
	var e contract.Error
	return res != nil && json.Unmarshal(res.Body, &e) == nil && e.StatusCode == res.Status
}

// Read reads a transaction by its transactionId. The family reads nothing
// by PixGate's id (external_id), so a read can never prove a transaction
// absent: a ref without the provider's id is refused, and is not a
// not-found.
func (f *connector) Read(ctx context.Context, ref providerclient.Ref) (*providerclient.Transaction, error) {
	if ref.ProviderID == "" {
		return nil, &providerclient.Error{Op: providerclient.OpRead, Kind: providerclient.ErrRejected,
			Message: "the family reads a transaction only by its transactionId, which is not known yet"}
	}
	t, err := f.c.ConsultTransaction(ctx, ref.ProviderID)
	if err != nil {
		return nil, err
	}
	out := Neutral(*t)
	if out.ProviderID == "" {
		out.ProviderID = ref.ProviderID
	}
	return &out, nil
}

func (f *connector) Balance(ctx context.Context) (*providerclient.Balance, error) {
	b, err := f.c.Balance(ctx)
	if err != nil {
		return nil, err
	}
	return &providerclient.Balance{Available: b.Available, Pending: b.Pending}, nil
}

// ParseNotification reads the one claim of a family notification (the
// family sends one transaction per notification).
func (f *connector) ParseNotification(_ http.Header, body []byte) ([]providerclient.Event, error) {
	n, err := ParseNotification(body)
	if err != nil {
		return nil, err
	}
	return notificationEvents(n, body)
}

// Neutral translates a consult-transaction answer (or a notification) into
// PixGate's terms: what Read answers.
func Neutral(t contract.Transaction) providerclient.Transaction {
	out := providerclient.Transaction{
		Kind: kindOf(t.TransactionType), ProviderID: t.TransactionID, ExternalID: t.ExternalID,
		Status: providerclient.Status(t.Status), Amount: t.Amount, EndToEndID: t.EndToEndID,
		SettledAt: t.ApprovedAt(), Description: t.Description,
	}
	if out.Status == providerclient.StatusFailed {
		out.FailureReason = t.FailureReason
		if out.FailureReason == "" && t.StatusCode != nil {
			out.FailureReason = t.StatusCode.Description
		}
	}
	if out.Kind == providerclient.KindCharge && t.CreditParty != nil {
		// The family names the payer of a received PIX creditParty.
		out.Payer = &providerclient.Party{Name: t.CreditParty.Name, Document: t.CreditParty.TaxID, Email: t.CreditParty.Email}
	}
	if out.Kind == providerclient.KindCharge && t.DebitParty != nil {
		// and the account it came from debitParty.
		out.PayerAccount = &providerclient.Party{Name: t.DebitParty.Name, Document: t.DebitParty.TaxID, Bank: t.DebitParty.Bank}
	}
	return out
}

// kindOf maps the family's transactionType; an unknown one is kept as it
// came, so that it is reported so.
func kindOf(transactionType string) providerclient.Kind {
	switch strings.ToUpper(transactionType) {
	case contract.TypeReceivePix:
		return providerclient.KindCharge
	case contract.TypePayment:
		return providerclient.KindPayout
	case contract.TypeRefund:
		return providerclient.KindRefund
	case contract.TypeInfraction:
		return providerclient.KindInfraction
	case contract.TypeMedReturn:
		return providerclient.KindMedReturn
	}
	return providerclient.Kind(transactionType)
}

// status is the family's status, which already speaks PixGate's words, or
// def when the answer carries none.
func status(s string, def providerclient.Status) providerclient.Status {
	if s = strings.ToUpper(strings.TrimSpace(s)); s == "" {
		return def
	}
	return providerclient.Status(s)
}
