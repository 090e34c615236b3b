package api

import (
	"encoding/json"
	"errors"
	"time"

	"github.com/pixgate/pixgate/api/payments"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/money/due"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// maxRecurrenceText bounds contract and description (the BCB's
// vinculo.contrato and vinculo.objeto: 35 characters).
const maxRecurrenceText = 35

// parseRecurrenceRequest reads POST /api/v1/recurrences
// (docs/recurrences.md), every problem at once.
func (s *Server) parseRecurrenceRequest(body object) (payments.RecurrenceRequest, error) {
	var r payments.RecurrenceRequest
	if ext, _ := body.externalID(); ext != nil {
		r.ExternalID = *ext
	} else if !body.errs.has("external_id") {
		body.errs.add(body.path("external_id"), "is required")
	}
	if j, ok := body.requiredStr("journey"); ok {
		if r.Journey = recurrence.Journey(j); !r.Journey.Valid() {
			body.errs.add(body.path("journey"), "must be one of %v", recurrence.Journeys)
		}
	}
	if payer, ok := body.requiredObject("payer"); ok {
		r.Payer = payer.payer()
		r.PayerAccount = payer.payerAccount(r.Journey == recurrence.JourneyPush)
	}
	r.Contract, _ = body.text("contract", maxRecurrenceText, true)
	r.Description = body.optionalText("description", maxRecurrenceText)
	today := due.Today(s.now())
	r.Calendar = body.recurrenceCalendar(today)
	r.Amount = body.recurrenceAmount()
	r.FirstPayment = body.firstPayment(r.Journey, r.Amount, r.Calendar, today)
	if p, ok := body.requiredStr("retry_policy"); ok {
		if r.RetryPolicy = recurrence.RetryPolicy(p); !r.RetryPolicy.Valid() {
			body.errs.add(body.path("retry_policy"), "must be %s or %s", recurrence.RetryNone, recurrence.RetryThreeInSeven)
		}
	}
	if at, ok := body.str("consent_expires_at"); ok {
		t, err := time.Parse(time.RFC3339, at)
		if err != nil {
			body.errs.add(body.path("consent_expires_at"), "must be a time, RFC 3339")
		} else if _, err := recurrence.ConsentDeadline(s.now(), t); err != nil {
			body.fieldError(err)
		}
		r.ConsentExpiresAt = &t
	}
	r.PostbackURL = body.postbackURL(s.cfg.AllowHTTPPostbacks, s.cfg.PostbackURLPolicy)
	if err := body.errs.err(); err != nil {
		return payments.RecurrenceRequest{}, err
	}
	return r, nil
}

// payerAccount reads payer.bank, the account a pushed consent request goes
// to: required for the push journey, refused for the others.
func (o object) payerAccount(push bool) *storage.RecurrencePayerAccount {
	if _, ok := o.raw("bank"); !ok {
		if push {
			o.errs.add(o.path("bank"), "is required for the PUSH journey")
		}
		return nil
	}
	bank, ok := o.requiredObject("bank")
	if !ok {
		return nil
	}
	if !push {
		o.errs.add(o.path("bank"), "is taken only by the PUSH journey")
	}
	a := &storage.RecurrencePayerAccount{}
	a.ISPB, _ = bank.text("ispb", 8, true)
	a.Branch, _ = bank.text("branch", 4, true)
	a.Account, _ = bank.text("account", 20, true)
	return a
}

// recurrenceCalendar reads calendar: {periodicity, start, end | count}.
func (o object) recurrenceCalendar(today due.Date) recurrence.Calendar {
	var c recurrence.Calendar
	r, ok := o.raw("calendar")
	if !ok {
		o.errs.add(o.path("calendar"), "is required")
		return c
	}
	if err := json.Unmarshal(r, &c); err != nil {
		o.errs.add(o.path("calendar"), "must be {periodicity, start, end or count}, dates YYYY-MM-DD")
		return c
	}
	if err := c.Validate(today); err != nil {
		o.fieldError(err)
	}
	return c
}

// recurrenceAmount reads amount: {"type": "fixed", "value"} or
// {"type": "variable", "floor"}.
func (o object) recurrenceAmount() recurrence.Amount {
	var a recurrence.Amount
	am, ok := o.requiredObject("amount")
	if !ok {
		return a
	}
	typ, _ := am.requiredStr("type")
	switch typ {
	case "fixed":
		a.Fixed, _ = am.amount("value", maxRecurrenceAmount)
		if _, ok := am.raw("floor"); ok {
			am.errs.add(am.path("floor"), "is taken only by a variable amount")
		}
	case "variable":
		if _, ok := am.raw("floor"); ok {
			a.Floor, _ = am.amount("floor", maxRecurrenceAmount)
		}
		if _, ok := am.raw("value"); ok {
			am.errs.add(am.path("value"), "is taken only by a fixed amount: a variable one's is set per cycle")
		}
	case "":
	default:
		am.errs.add(am.path("type"), "must be fixed or variable")
	}
	if err := a.Validate(); err != nil {
		o.fieldError(err)
	}
	return a
}

// maxRecurrenceAmount bounds a cycle's amount (the BCB's \d{1,10}\.\d{2}).
const maxRecurrenceAmount = 9_999_999_999_99

// fieldError adds a core rule's *FieldError under its own field.
func (o object) fieldError(err error) {
	var fe *recurrence.FieldError
	if errors.As(err, &fe) {
		o.errs.add(o.path(fe.Field), "%s", fe.Message)
		return
	}
	o.errs.add(o.prefix, "%s", err.Error())
}

// firstPayment reads first_payment: {"amount"}, required by the journeys
// whose QR Code also pays the first cycle (QR_WITH_PAYMENT: cycle 0, due
// on the calendar's start, today) and refused by the others; a fixed
// recurrence's first payment is its amount.
func (o object) firstPayment(j recurrence.Journey, a recurrence.Amount, c recurrence.Calendar, today due.Date) money.Money {
	if _, ok := o.raw("first_payment"); !ok {
		if j.PaysFirstCycle() {
			o.errs.add(o.path("first_payment"), "is required for the %s journey", j)
		}
		return 0
	}
	fp, ok := o.requiredObject("first_payment")
	if !ok {
		return 0
	}
	if !j.PaysFirstCycle() {
		o.errs.add(o.path("first_payment"), "is taken only by the %s and %s journeys", recurrence.JourneyQRWithPayment,
			recurrence.JourneyQRWithDuePayment)
		return 0
	}
	amount, ok := fp.amount("amount", maxRecurrenceAmount)
	switch {
	case !ok:
	case !a.Variable() && a.Fixed != 0 && amount != a.Fixed:
		fp.errs.add(fp.path("amount"), "must be the recurrence's fixed amount (%s): the first payment is its cycle 0", a.Fixed)
	case j == recurrence.JourneyQRWithPayment && !c.Start.IsZero() && c.Start != today:
		o.errs.add(o.path("calendar.start"), "must be today (%s) for the %s journey: its first payment is cycle 0, paid on approval",
			today, j)
	}
	return amount
}
