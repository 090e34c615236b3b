package console

import (
	"net/http"
	"time"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

// The infractions page, read only: the MED infractions still open across
// integrators (what each blocked, what it could not) and each integrator's
// debt, the MED returns beyond what was blocked that its next cash-ins
// repay. The provider closes infractions; an integrator defends one
// through the API; the operator here only sees where MED stands.

// medListed bounds each of the page's lists.
const medListed = 500

// medView is the infractions page's data.
type medView struct {
	Open  []storage.OpenMED
	Debts []storage.IntegratorDebt
	// Blocked, Shortfall and Debt are the lists' totals; Now marks the
	// infractions whose analysis is overdue.
	Blocked, Shortfall, Debt money.Money
	Now                      time.Time
}

func (c *console) infractions(rw http.ResponseWriter, r *http.Request) {
	d := medView{Now: time.Now()}
	var err error
	if d.Open, err = c.cfg.Store.OpenInfractions(r.Context(), medListed); err == nil {
		d.Debts, err = c.cfg.Store.IntegratorDebts(r.Context(), medListed)
	}
	if err != nil {
		c.fail(rw, r, err)
		return
	}
	for _, i := range d.Open {
		d.Blocked += i.Blocked
		d.Shortfall += i.Shortfall()
	}
	for _, x := range d.Debts {
		d.Debt += x.Debt
	}
	c.render(rw, r, http.StatusOK, "infractions.html", view{Section: "infractions", Data: d})
}
