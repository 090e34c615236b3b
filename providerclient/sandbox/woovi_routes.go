package sandbox

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/providerclient/pix"
	"github.com/pixgate/pixgate/providerclient/wooviapi"
	"github.com/pixgate/pixgate/storage/money/due"
)

// wooviDecode reads a JSON body; a bad one is answered 400.
func (f wooviFace) decode(w http.ResponseWriter, r *http.Request, v any) bool {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err == nil {
		err = json.Unmarshal(body, v)
	}
	if err != nil {
		f.writeError(w, http.StatusBadRequest, "malformed JSON body")
		return false
	}
	return true
}

func validCorrelationID(id string) bool {
	return id != "" && len(id) <= 128 && !strings.ContainsAny(id, "/?#% ")
}

func (f wooviFace) postCharge(w http.ResponseWriter, r *http.Request) {
	var req wooviapi.ChargeRequest
	if !f.decode(w, r, &req) {
		return
	}
	amount, ok := cents(req.Value)
	switch {
	case !validCorrelationID(req.CorrelationID):
		f.writeError(w, http.StatusBadRequest, "correlationID is required")
		return
	case !ok:
		f.writeError(w, http.StatusBadRequest, "value must be a positive number of cents")
		return
	case len([]rune(req.Comment)) > 140:
		f.writeError(w, http.StatusBadRequest, "comment must be at most 140 characters")
		return
	}
	var debtor contract.Party
	if c := req.Customer; c != nil {
		debtor.Name, debtor.Email = strings.TrimSpace(c.Name), c.Email
		if c.TaxID != "" {
			doc, err := pix.NormalizeDocument(c.TaxID)
			if err != nil {
				f.writeError(w, http.StatusBadRequest, "customer.taxID "+err.Error())
				return
			}
			debtor.TaxID = doc
		}
	}
	now := time.Now()
	terms, msg := wooviDue(req, amount, due.Today(now))
	if msg != "" {
		f.writeError(w, http.StatusBadRequest, msg)
		return
	}
	rec, created, err := f.s.createCharge(chargeSpec{id: req.CorrelationID, externalID: req.CorrelationID, amount: amount,
		debtor: debtor, description: req.Comment, postbackURL: f.s.cfg.WebhookURL,
		expiration: time.Duration(req.ExpiresIn) * time.Second, due: terms}, now)
	switch {
	case err != nil:
		f.writeError(w, http.StatusServiceUnavailable, err.Error())
	case !created:
		f.writeError(w, http.StatusBadRequest, "a charge with this correlationID already exists")
	default:
		f.s.mu.Lock()
		c := f.chargeOf(rec, time.Now())
		f.s.mu.Unlock()
		writeJSON(w, http.StatusOK, wooviapi.ChargeAnswer{Charge: c, CorrelationID: c.CorrelationID, BrCode: c.BrCode})
	}
}

// record is the record of id of kind, or nil. Callers hold s.mu.
func (f wooviFace) record(id, kind string) *record {
	if r := f.s.records[id]; r != nil && r.kind == kind {
		return r
	}
	return nil
}

func (f wooviFace) getCharge(w http.ResponseWriter, r *http.Request) {
	f.s.mu.Lock()
	defer f.s.mu.Unlock()
	rec := f.record(r.PathValue("id"), contract.TypeReceivePix)
	if rec == nil {
		f.writeError(w, http.StatusBadRequest, "charge not found")
		return
	}
	writeJSON(w, http.StatusOK, wooviapi.ChargeAnswer{Charge: f.chargeOf(rec, time.Now())})
}

func (f wooviFace) postRefund(w http.ResponseWriter, r *http.Request) {
	var req wooviapi.RefundRequest
	if !f.decode(w, r, &req) {
		return
	}
	amount, ok := cents(req.Value)
	if !validCorrelationID(req.CorrelationID) || !ok {
		f.writeError(w, http.StatusBadRequest, "correlationID and a positive value are required")
		return
	}
	rec, created, err := f.s.createRefund(refundSpec{id: req.CorrelationID, externalID: req.CorrelationID, chargeID: r.PathValue("id"),
		amount: amount, description: req.Comment, postbackURL: f.s.cfg.WebhookURL, endToEndID: newEndToEndID('D', time.Now())}, time.Now())
	var no refusal
	switch {
	case errors.Is(err, ErrNotFound):
		f.writeError(w, http.StatusBadRequest, "charge not found")
	case errors.As(err, &no), errors.Is(err, errInsufficient):
		f.writeError(w, http.StatusBadRequest, err.Error())
	case err != nil:
		f.writeError(w, http.StatusServiceUnavailable, err.Error())
	case !created:
		f.writeError(w, http.StatusBadRequest, "a refund with this correlationID already exists")
	default:
		f.s.mu.Lock()
		cr := chargeRefundOf(rec)
		f.s.mu.Unlock()
		writeJSON(w, http.StatusOK, wooviapi.ChargeRefundAnswer{Refund: cr})
	}
}

func (f wooviFace) getRefund(w http.ResponseWriter, r *http.Request) {
	f.s.mu.Lock()
	defer f.s.mu.Unlock()
	rec := f.record(r.PathValue("id"), contract.TypeRefund)
	if rec == nil {
		f.writeError(w, http.StatusBadRequest, "refund not found")
		return
	}
	writeJSON(w, http.StatusOK, wooviapi.RefundAnswer{PixTransactionRefund: refundOf(rec)})
}

// aliasKeyType is the key type of a destinationAliasType.
var aliasKeyType = map[string]pix.KeyType{"CPF": pix.KeyCPF, "CNPJ": pix.KeyCNPJ, "EMAIL": pix.KeyEmail, "PHONE": pix.KeyPhone, "RANDOM": pix.KeyEVP}

func (f wooviFace) postPayment(w http.ResponseWriter, r *http.Request) {
	var req wooviapi.PaymentRequest
	if !f.decode(w, r, &req) {
		return
	}
	amount, ok := cents(req.Value)
	kt, known := aliasKeyType[req.DestinationAliasType]
	switch {
	case req.Type != wooviapi.PaymentTypePixKey:
		f.writeError(w, http.StatusBadRequest, "the sandbox pays only to a PIX key (type PIX_KEY)")
		return
	case !validCorrelationID(req.CorrelationID) || !ok:
		f.writeError(w, http.StatusBadRequest, "correlationID and a positive value are required")
		return
	case !known:
		f.writeError(w, http.StatusBadRequest, "destinationAliasType must be CPF, CNPJ, EMAIL, PHONE or RANDOM")
		return
	}
	key, err := pix.NormalizeKey(kt, req.DestinationAlias)
	if err != nil {
		f.writeError(w, http.StatusBadRequest, "destinationAlias "+err.Error())
		return
	}
	rec, created, err := f.s.createPayout(payoutSpec{id: req.CorrelationID, externalID: req.CorrelationID, amount: amount,
		description: req.Comment, postbackURL: f.s.cfg.WebhookURL, creditParty: contract.Party{KeyType: string(kt), Key: key},
		endToEndID: newEndToEndID('E', time.Now())}, time.Now())
	var no refusal
	switch {
	case errors.Is(err, errInsufficient):
		f.writeError(w, http.StatusBadRequest, "insufficient balance")
	case errors.As(err, &no):
		f.writeError(w, http.StatusBadRequest, no.Error())
	case err != nil:
		f.writeError(w, http.StatusServiceUnavailable, err.Error())
	case !created:
		f.writeError(w, http.StatusBadRequest, "a payment with this correlationID already exists")
	default:
		f.s.mu.Lock()
		a := f.paymentOf(rec)
		f.s.mu.Unlock()
		writeJSON(w, http.StatusOK, a)
	}
}

func (f wooviFace) getPayment(w http.ResponseWriter, r *http.Request) {
	f.s.mu.Lock()
	defer f.s.mu.Unlock()
	rec := f.record(r.PathValue("id"), contract.TypePayment)
	if rec == nil {
		f.writeError(w, http.StatusBadRequest, "payment not found")
		return
	}
	writeJSON(w, http.StatusOK, f.paymentOf(rec))
}

func (f wooviFace) getAccounts(w http.ResponseWriter, _ *http.Request) {
	b := f.s.Balance()
	writeJSON(w, http.StatusOK, wooviapi.AccountsAnswer{Accounts: []wooviapi.Account{{AccountID: "sandbox", IsDefault: true,
		Balance: wooviapi.Balance{Total: int64(b.Balance), Blocked: int64(b.Pending), Available: int64(b.Available)}}}})
}
