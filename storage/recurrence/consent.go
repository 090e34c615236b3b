package recurrence

import (
	"fmt"
	"time"
)

// ConsentMaxDays is how long a consent request stays open: the payer's
// bank keeps it "em aberto até a confirmação ou a recusa do usuário
// pagador e até o limite de trinta dias após o envio", less if the
// receiver says so, and deletes it after ([IN 436] art. 3 and its §§ 1–2).
// The article speaks of the journey where the request is pushed to the
// payer's bank (journey 1, whose solicrec carries
// calendario.dataExpiracaoSolicitacao [API Pix]); PixGate bounds a QR
// journey's consent by the same 30 days (PixGate's choice: a recurrence
// waiting longer would start with its first cycles already past).
const ConsentMaxDays = 30

// ConsentDeadline is when a consent requested at created stops waiting:
// requested when the integrator set one (after created, at most
// ConsentMaxDays later), or ConsentMaxDays after created. A bad
// requested is a *FieldError on "consent_expires_at".
func ConsentDeadline(created, requested time.Time) (time.Time, error) {
	limit := created.AddDate(0, 0, ConsentMaxDays)
	switch {
	case requested.IsZero():
		return limit, nil
	case !requested.After(created):
		return time.Time{}, fieldErr("consent_expires_at", "must be in the future")
	case requested.After(limit):
		return time.Time{}, fieldErr("consent_expires_at", fmt.Sprintf("must be at most %d days ahead", ConsentMaxDays))
	}
	return requested, nil
}
