package api

import (
	"encoding/json"
	"errors"

	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/money/due"
)

// dueTerms reads a charge's optional due member: a due-date charge's terms
// (docs/due-charges.md) for its amount, validated and normalized. Unlike
// the body's own members, a member the terms do not know is refused
// (due.Terms reads strictly): a misspelt fine would otherwise leave the
// charge without one. today is the day in Brasília.
func (o object) dueTerms(amount money.Money, today due.Date) *due.Terms {
	raw, ok := o.raw("due")
	if !ok {
		return nil
	}
	t := due.Terms{Original: amount}
	err := json.Unmarshal(raw, &t)
	if err == nil {
		t.Normalize()
		err = t.Validate(today)
	}
	var fe *due.FieldError
	switch {
	case err == nil:
		return &t
	case errors.As(err, &fe) && fe.Field != "":
		o.errs.add(o.path("due."+fe.Field), "%s", fe.Message)
	case errors.As(err, &fe):
		o.errs.add(o.path("due"), "%s", fe.Message)
	default:
		o.errs.add(o.path("due"), "must be an object of due-date terms")
	}
	return nil
}
