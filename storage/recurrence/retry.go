package recurrence

import (
	"errors"
	"fmt"

	"github.com/pixgate/pixgate/storage/money/due"
)

// RetryPolicy says whether a cycle whose attempt on the due date failed is
// tried again. The BCB has two: NAO_PERMITE and PERMITE_3R_7D (the rec's
// politicaRetentativa [API Pix]); the recurrence's id tells which ("RR"
// permits retries, "RN" does not, RecId).
type RetryPolicy string

// Retry policies.
const (
	RetryNone          RetryPolicy = "NONE"            // NAO_PERMITE
	RetryThreeInSeven  RetryPolicy = "THREE_IN_7_DAYS" // PERMITE_3R_7D
	MaxRetries                     = 3                 // "3R"
	RetryWindowDays                = 7                 // "7D": calendar days after the due date
	retryPolicyBCBNone             = "NAO_PERMITE"
	retryPolicyBCB3R7D             = "PERMITE_3R_7D"
)

// retryPlan is the day, counted from the due date, PixGate asks each retry
// to settle on (PixGate's choice; the receiver picks the days, "por
// exemplo, é possível realizar tentativas em D+1, D+4 e D+7", Celcoin,
// developers.celcoin.com.br/docs/recebedora-retentativas-de-recebimento):
// the next day, then spread over the week, as a payer short of money today
// may have it a few days on.
var retryPlan = [MaxRetries]int{1, 4, 7}

// Valid reports whether p is a policy.
func (p RetryPolicy) Valid() bool { return p == RetryNone || p == RetryThreeInSeven }

// Retries is how many retries a cycle may have after its first attempt.
func (p RetryPolicy) Retries() int {
	if p == RetryThreeInSeven {
		return MaxRetries
	}
	return 0
}

// BCB is p's name in politicaRetentativa.
func (p RetryPolicy) BCB() string {
	if p == RetryThreeInSeven {
		return retryPolicyBCB3R7D
	}
	return retryPolicyBCBNone
}

// RetryPolicyFromBCB is PixGate's name for a politicaRetentativa.
func RetryPolicyFromBCB(name string) (RetryPolicy, bool) {
	switch name {
	case retryPolicyBCBNone:
		return RetryNone, true
	case retryPolicyBCB3R7D:
		return RetryThreeInSeven, true
	}
	return "", false
}

// Retry errors.
var (
	ErrRetryNotAllowed = errors.New("the recurrence's policy allows no retry")
	ErrRetriesSpent    = errors.New("the cycle has had its 3 retries")
	ErrRetryOutside    = errors.New("a retry settles 1 to 7 days after the due date, before the next cycle's due date")
	ErrRetryNotFuture  = errors.New("a retry settles on a future day, after the cycle's previous attempt")
)

// RetryRange is the days a retry of a cycle due on d may settle on, both
// included: from the day after the due date to RetryWindowDays after it,
// and before the next cycle's due date next (zero for the last cycle).
// "A regra permite até 3 tentativas em datas diferentes, dentro de 7 dias
// corridos após o vencimento original e antes do próximo ciclo da
// recorrência" [Asaas]. False when the policy allows none or no day fits
// (a weekly cycle has six).
func (p RetryPolicy) RetryRange(d, next due.Date) (first, last due.Date, ok bool) {
	if p.Retries() == 0 {
		return due.Date{}, due.Date{}, false
	}
	first, last = d.AddDays(1), d.AddDays(RetryWindowDays)
	if !next.IsZero() && !last.Before(next) {
		last = next.AddDays(-1)
	}
	return first, last, !last.Before(first)
}

// CheckRetry checks a retry of a cycle due on d (next: the next cycle's due
// date, zero for none) to settle on day, asked on today, after retries
// already asked and a previous attempt dated prev: the policy allows one
// more, day is in RetryRange, after today (the BCB refuses "uma data
// futura" that is not, [API Pix] POST /cobr/{txid}/retentativa/{data}) and
// after prev (different dates [Asaas]). What the sandbox enforces as the
// payer's bank, and PixGate before asking.
func (p RetryPolicy) CheckRetry(d, next due.Date, retries int, prev, day, today due.Date) error {
	first, last, ok := p.RetryRange(d, next)
	switch {
	case p.Retries() == 0:
		return ErrRetryNotAllowed
	case retries >= p.Retries():
		return ErrRetriesSpent
	case !ok || day.Before(first) || day.After(last):
		return fmt.Errorf("%w (%s to %s)", ErrRetryOutside, first, last)
	case !day.After(today) || !day.After(prev):
		return ErrRetryNotFuture
	}
	return nil
}

// NextRetry is the day PixGate asks its next retry of a cycle due on d to
// settle on, asked on today after retries already asked and a previous
// attempt dated prev: the plan's day for that retry, or the first day that
// is still allowed when the plan's has passed. False when the policy
// allows no more or no day is left: the cycle then ends EXPIRED.
func (p RetryPolicy) NextRetry(d, next due.Date, retries int, prev, today due.Date) (due.Date, bool) {
	if retries < 0 || retries >= p.Retries() {
		return due.Date{}, false
	}
	day := d.AddDays(retryPlan[retries])
	for _, floor := range []due.Date{today.AddDays(1), prev.AddDays(1)} {
		if day.Before(floor) {
			day = floor
		}
	}
	if _, last, ok := p.RetryRange(d, next); ok && day.After(last) {
		day = last
	}
	if p.CheckRetry(d, next, retries, prev, day, today) != nil {
		return due.Date{}, false
	}
	return day, true
}
