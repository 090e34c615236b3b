package api

import (
	"errors"

	"github.com/pixgate/pixgate/api/payments"
	"github.com/pixgate/pixgate/providerclient/pix"
)

// parseWithdrawalRequest reads a withdrawal request's body (v1 and v2
// alike) into a payments.WithdrawalRequest, the key and tax id in
// canonical form, and reports every problem at once.
func (s *Server) parseWithdrawalRequest(body object) (payments.WithdrawalRequest, error) {
	var in payments.WithdrawalRequest
	in.Amount, _ = body.amount("amount", s.cfg.MaxAmount)
	if cp, ok := body.requiredObject("creditParty"); ok {
		in.CreditParty.Name = cp.name("name")
		var keyType pix.KeyType
		if s, ok := cp.requiredStr("keyType"); ok {
			kt, err := pix.ParseKeyType(s)
			if err != nil {
				cp.errs.add(cp.path("keyType"), "%s", err.Error())
			}
			keyType = kt
		}
		if key, ok := cp.requiredStr("key"); ok && keyType != "" {
			norm, err := pix.NormalizeKey(keyType, key)
			switch {
			case errors.Is(err, pix.ErrKeyRequired):
				cp.errs.add(cp.path("key"), "must not be blank")
			case err != nil:
				cp.errs.add(cp.path("key"), "%s (keyType %s)", err.Error(), keyType)
			}
			in.CreditParty.KeyType, in.CreditParty.Key = string(keyType), norm
		}
		if taxID, ok := cp.requiredStr("taxId"); ok {
			norm, err := pix.NormalizeDocument(taxID)
			if err != nil {
				cp.errs.add(cp.path("taxId"), "%s", err.Error())
			}
			in.CreditParty.TaxID = norm
		}
	}
	in.ExternalID, _ = body.externalID()
	in.Description = body.optionalText("description", maxShortTextLen)
	in.PostbackURL = body.postbackURL(s.cfg.AllowHTTPPostbacks, s.cfg.PostbackURLPolicy)
	in.DueAt = body.dueAt(s.now())
	if err := body.errs.err(); err != nil {
		return payments.WithdrawalRequest{}, err
	}
	return in, nil
}
