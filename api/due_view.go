package api

import (
	"time"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/money/due"
)

// dueView is a due-date charge's terms as the integrator sent them, its
// original amount (the charge's amount until it is paid, what was paid
// after), its last payable day, and, while it waits for its payer, what
// it asks today in Brasília.
type dueView struct {
	due.Terms
	OriginalAmount money.Money    `json:"original_amount"`
	LastDay        due.Date       `json:"last_day"`
	AmountDue      *due.Breakdown `json:"amount_due"`
}

func viewDue(c storage.Charge, now time.Time) *dueView {
	if c.Due == nil {
		return nil
	}
	v := &dueView{Terms: c.Due.Terms, OriginalAmount: c.Due.Terms.Original, LastDay: c.Due.Terms.LastDay()}
	if c.Status == storage.ChargePending {
		if b, err := c.Due.Terms.AmountOn(due.Today(now)); err == nil {
			v.AmountDue = &b
		}
	}
	return v
}
