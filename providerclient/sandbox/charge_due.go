package sandbox

import (
	"encoding/json"
	"errors"
	"time"

	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/money/due"
)

// dueTerms reads the due member of a family charge, PixGate's extension of
// POST /v2/pix/qrcode (contract.ChargeRequest.Due): the terms in their JSON
// form, whose original is the charge's amount, checked by
// due.Terms.Validate. A due-date charge names its payer, with a document,
// and falls due today or later (Brasília). Every problem is named in v,
// below "due"; no due member is nil.
func (v *validation) dueTerms(raw json.RawMessage, amount money.Money, payer contract.Party, now time.Time) *due.Terms {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var t due.Terms
	if err := json.Unmarshal(raw, &t); err != nil {
		var fe *due.FieldError
		if errors.As(err, &fe) && fe.Field != "" {
			v.add("due."+fe.Field, fe.Message)
		} else {
			v.addErr("due", err)
		}
		return nil
	}
	t.Original = amount
	t.Normalize()
	if payer.Name == "" {
		v.add("payer.name", "is required for a due-date charge")
	}
	if payer.TaxID == "" {
		v.add("payer.document", "is required for a due-date charge")
	}
	var fe *due.FieldError
	if err := t.Validate(due.Today(now)); errors.As(err, &fe) {
		v.add("due."+fe.Field, fe.Message)
	} else if err != nil {
		v.addErr("due", err)
	}
	return &t
}
