package storage

import (
	"time"

	"github.com/pixgate/pixgate/storage/money"
)

// PixLimit is a provider's maximum per PIX (Res. BCB 494-498/2025: R$
// 15,000 for institutions that reach the system through an IT provider or
// are not yet authorised). Zero is no limit. Night applies, when set, from
// 20:00 to 06:00 America/Sao_Paulo, together with Max: the lower of the
// two.
type PixLimit struct {
	Max   money.Money
	Night money.Money
}

// SetDefaultPixLimit sets the per-PIX limit of the default provider, which
// the environment configures (PIXGATE_PROVIDER_PIX_LIMIT and _NIGHT)
// rather than a providers row: the routes apply it as a stored provider's
// (a stored row named "default" wins). Routes read after it see it.
func (db *DB) SetDefaultPixLimit(l PixLimit) {
	db.defaultLimit.Store(&l)
	db.routes.forget()
}

// saoPaulo is America/Sao_Paulo: UTC-3 all year since Brazil ended
// daylight saving time in 2019, so no time zone database is needed.
var saoPaulo = time.FixedZone("America/Sao_Paulo", -3*60*60)

// Nighttime is the nighttime window of the PIX limits, 20:00 to 06:00
// America/Sao_Paulo.
func Nighttime(at time.Time) bool {
	h := at.In(saoPaulo).Hour()
	return h >= 20 || h < 6
}

// At is the limit in force at a moment, zero when there is none.
func (l PixLimit) At(at time.Time) money.Money {
	limit := l.Max
	if l.Night > 0 && Nighttime(at) && (limit == 0 || l.Night < limit) {
		limit = l.Night
	}
	return limit
}

// Allows says whether a PIX of amount may go through the provider at a
// moment.
func (l PixLimit) Allows(amount money.Money, at time.Time) bool {
	limit := l.At(at)
	return limit == 0 || amount <= limit
}

// WithdrawalsAllowing is the route's withdrawal providers, in order, whose
// per-PIX limit lets amount through at a moment.
func (r Route) WithdrawalsAllowing(amount money.Money, at time.Time) []string {
	out := make([]string, 0, len(r.Withdrawals))
	for _, name := range r.Withdrawals {
		if r.Limits[name].Allows(amount, at) {
			out = append(out, name)
		}
	}
	return out
}

// HighestLimit is the highest per-PIX limit in force at a moment among
// the route's withdrawal providers, for a refusal's words: the largest
// amount the route takes; zero when one of them has no limit.
func (r Route) HighestLimit(at time.Time) money.Money {
	var high money.Money
	for _, name := range r.Withdrawals {
		l := r.Limits[name].At(at)
		if l == 0 {
			return 0
		}
		high = max(high, l)
	}
	return high
}
