package woovi

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/pix"
	"github.com/pixgate/pixgate/providerclient/wooviapi"
	"github.com/pixgate/pixgate/storage/money"
)

// chargeCorrelationID is the correlationID of PixGate's charge id: its
// UUID without hyphens, 32 letters and digits, the form of the provider's
// id (PixGate's pix_id) every other connector gives a charge (efi's txid,
// the family's transactionId). Woovi takes any string as a correlationID
// and writes it so in its own examples ("fe7834b4060c488a9b0f89811be5f5cf",
// [Woovi-API] DELETE /api/v1/charge/{id}). Charges created before this
// form keep the hyphenated correlationID they were made under: they are
// read, refunded and notified under that stored id, and a read by
// PixGate's id alone tries it too (readCharge).
//
// Payments and refunds keep PixGate's id as it is: integrators never see
// their provider id (their pix_id is PixGate's own, 32 hex digits), and a
// send resent after an unknown outcome must name the very correlationID
// of the first try, or Woovi would take it for a new one.
func chargeCorrelationID(id string) string { return strings.ReplaceAll(id, "-", "") }

// readCharge reads a charge: by the provider's id when the ref has it;
// else by PixGate's id as a correlationID, and, only when Woovi proves
// that one absent, by the hyphenated form charges made before were given
// (a create of then whose answer was lost). A paid charge comes with the
// PIX that paid it (paidWith); a due-date charge's (ref.Due, or Woovi's
// type OVERDUE) with the amount that PIX paid on its day.
func (c *connector) readCharge(ctx context.Context, ref providerclient.Ref) (*providerclient.Transaction, error) {
	ids := []string{ref.ProviderID}
	if ref.ProviderID == "" {
		ids = []string{chargeCorrelationID(ref.ID)}
		if ids[0] != ref.ID {
			ids = append(ids, ref.ID)
		}
	}
	var ans wooviapi.ChargeAnswer
	var err error
	for _, id := range ids {
		if err = c.get(ctx, "/api/v1/charge/"+escape(id), &ans); !errors.Is(err, providerclient.ErrProvedAbsent) {
			break
		}
	}
	if err != nil {
		return nil, err
	}
	t := chargeTransaction(ans.Charge)
	if t.Status == providerclient.StatusPaid {
		if err := c.paidWith(ctx, &t, ref.Due || ans.Charge.Type == wooviapi.ChargeOverdue); err != nil {
			return nil, err
		}
	}
	return &t, nil
}

// paidWith completes a paid charge with what Woovi's charge does not
// carry ([Woovi-API] Charge has neither an end-to-end id nor a payer): the
// PIX that paid it, the PAYMENT of the transaction list filtered by the
// charge's correlationID (GET /api/v1/transaction?charge=, [Woovi-API]),
// whose endToEndId, payer (a Customer: name, taxID, email) and time are
// the payment's. When the list names no PAYMENT of it, the charge is
// answered as Woovi's charge read says. A failed list leaves the read
// unanswered: the charge exists, so no refusal of the list proves
// anything absent, and what the worker keeps of a payment it keeps once.
//
// A due-date charge (isDue) asks an amount that depends on the day it is
// paid, and Woovi's charge keeps the value it was created with: what was
// paid is the PAYMENT's value, and without it the read is unanswered,
// never answered with the original amount.
func (c *connector) paidWith(ctx context.Context, t *providerclient.Transaction, isDue bool) error {
	q := url.Values{wooviapi.ChargeParam: {t.ProviderID}}
	res, err := c.call(ctx, providerclient.OpRead, http.MethodGet, wooviapi.PathTransactions+"?"+q.Encode(), nil)
	if err != nil {
		return err
	}
	var ans wooviapi.TransactionList
	if err := decode(providerclient.OpRead, res, &ans); err != nil {
		return providerclient.Unanswered(err, "the PIX that paid the charge")
	}
	for _, tx := range ans.Transactions {
		kind, _ := movement(tx)
		if kind != wooviapi.TransactionPayment || (tx.Charge != nil && tx.Charge.CorrelationID != "" && tx.Charge.CorrelationID != t.ProviderID) {
			continue
		}
		t.EndToEndID = endToEndID(tx)
		if isDue {
			t.Amount = money.Money(tx.Value)
		}
		if at := parseTime(tx.Time); !at.IsZero() {
			t.SettledAt = at
		}
		if p := party(tx.Payer); p != nil {
			// Who paid, and the account it came from as far as Woovi names
			// it (its holder: no bank).
			t.Payer, t.PayerAccount = p, &providerclient.Party{Name: p.Name, Document: p.Document}
		}
		return nil
	}
	if isDue {
		return &providerclient.Error{Op: providerclient.OpRead, Kind: providerclient.ErrUnknownOutcome, StatusCode: res.Status,
			Message: "the due-date charge is paid, and Woovi's transaction list names no PIX that paid it: the amount paid is unknown"}
	}
	return nil
}

// party is who paid as PixGate names a party: Woovi's payer gives a name,
// a tax id and an email, and no bank. Nil when it names no one.
func party(p *wooviapi.Person) *providerclient.Party {
	if p == nil {
		return nil
	}
	out := &providerclient.Party{Name: strings.TrimSpace(p.Name), Email: strings.TrimSpace(p.Email)}
	if p.TaxID != nil {
		if doc, err := pix.NormalizeDocument(p.TaxID.TaxID); err == nil {
			out.Document = doc
		}
	}
	if out.Name == "" && out.Document == "" {
		return nil
	}
	return out
}
