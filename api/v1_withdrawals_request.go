package api

import (
	"crypto/sha256"
	"encoding/json"
	"errors"

	"github.com/pixgate/pixgate/providerclient/pix"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

// withdrawalInput is a validated POST /api/v1/withdrawals body, with the
// key and tax id in the canonical form PixGate stores and sends.
type withdrawalInput struct {
	ExternalID  *string
	Amount      money.Money
	CreditParty storage.CreditParty
	Description *string
	PostbackURL *string
}

// parseWithdrawal validates a withdrawal body and reports every problem at
// once.
func (s *Server) parseWithdrawal(body object) (withdrawalInput, error) {
	var in withdrawalInput
	in.Amount, _ = body.amount("amount", s.cfg.MaxAmount)
	if cp, ok := body.requiredObject("creditParty"); ok {
		in.CreditParty.Name, _ = cp.text("name", maxNameLen, true)
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
	if err := body.errs.err(); err != nil {
		return withdrawalInput{}, err
	}
	return in, nil
}

// hash fingerprints the validated request (canonical key and tax id), so a
// replay matches however the key was spelled. The fee is left out.
func (in withdrawalInput) hash() []byte {
	canon, _ := json.Marshal(struct {
		Kind        string              `json:"k"`
		ExternalID  *string             `json:"e"`
		Amount      money.Money         `json:"a"`
		CreditParty storage.CreditParty `json:"c"`
		Description *string             `json:"d"`
		PostbackURL *string             `json:"u"`
	}{"withdrawal/v1", in.ExternalID, in.Amount, in.CreditParty, in.Description, in.PostbackURL})
	sum := sha256.Sum256(canon)
	return sum[:]
}
