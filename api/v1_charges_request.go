package api

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"encoding/json"
	"strings"

	"github.com/pixgate/pixgate/providerclient/pix"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

// chargeInput is a validated POST /api/v1/charges body.
type chargeInput struct {
	ExternalID    string
	Amount        money.Money
	Fee           money.Money
	Payer         storage.Payer
	PayerQuestion *string
	PostbackURL   *string
	Split         json.RawMessage // canonical form
}

// parseCharge validates a charge body against the integrator's cash-in fee
// and reports every problem at once.
func (s *Server) parseCharge(body object, cashIn money.FeeRule) (chargeInput, error) {
	var in chargeInput
	amount, amountOK := body.amount("amount", s.cfg.MaxAmount)
	if amountOK {
		in.Amount, in.Fee = amount, cashIn.Compute(amount)
		if in.Amount <= in.Fee {
			body.errs.add("amount", "must exceed the cash-in fee of R$ %s", in.Fee)
		}
	}
	if payer, ok := body.requiredObject("payer"); ok {
		in.Payer.Name, _ = payer.text("name", maxNameLen, true)
		if doc, ok := payer.requiredStr("document"); ok {
			norm, err := pix.NormalizeDocument(doc)
			if err != nil {
				payer.errs.add(payer.path("document"), "%s", err.Error())
			}
			in.Payer.Document = norm
		}
		in.Payer.Email = payer.email("email")
	}
	ext, _ := body.externalID()
	if ext != nil {
		in.ExternalID = *ext
	}
	in.PostbackURL = body.postbackURL(s.cfg.AllowHTTPPostbacks, s.cfg.PostbackURLPolicy)
	in.PayerQuestion = body.optionalText("payerQuestion", maxShortTextLen)
	in.Split = body.split()
	if err := body.errs.err(); err != nil {
		return chargeInput{}, err
	}
	if in.ExternalID == "" {
		in.ExternalID = newChargeExternalID()
	}
	return in, nil
}

// hash fingerprints the validated request (normalized values, canonical
// split), so that a replay of the same body matches however it was spelled,
// and any change of substance is an idempotency conflict. The fee is left
// out: it is PixGate's, not the integrator's, and may change between tries.
func (in chargeInput) hash() []byte {
	canon, _ := json.Marshal(struct {
		Kind          string          `json:"k"`
		ExternalID    string          `json:"e"`
		Amount        money.Money     `json:"a"`
		Payer         storage.Payer   `json:"p"`
		PayerQuestion *string         `json:"q"`
		PostbackURL   *string         `json:"u"`
		Split         json.RawMessage `json:"s"`
	}{"charge/v1", in.ExternalID, in.Amount, in.Payer, in.PayerQuestion, in.PostbackURL, in.Split})
	sum := sha256.Sum256(canon)
	return sum[:]
}

// newChargeExternalID is the external_id of a charge created without one:
// "chg-" and 20 random base32 characters (100 bits).
func newChargeExternalID() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return "chg-" + strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b))[:20]
}
