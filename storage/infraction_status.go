package storage

// InfractionStatus is where an infraction stands.
type InfractionStatus string

// Infraction statuses: OPEN until the provider closes it.
const (
	InfractionOpen      InfractionStatus = "OPEN"
	InfractionAgreed    InfractionStatus = "AGREED"    // the dispute stands: the money goes back to the payer
	InfractionDisagreed InfractionStatus = "DISAGREED" // the dispute failed: the money is released
	InfractionCancelled InfractionStatus = "CANCELLED" // withdrawn by whoever opened it: released
)

// InfractionStatuses are every status, OPEN first.
var InfractionStatuses = []InfractionStatus{InfractionOpen, InfractionAgreed, InfractionDisagreed, InfractionCancelled}

// infractionMoves is every change of an infraction's status: it is
// recorded OPEN (OpenInfraction) and closed once, from OPEN
// (CloseInfraction, WHERE status = 'OPEN').
var infractionMoves = statusMoves[InfractionStatus]{
	InfractionOpen:      {InfractionAgreed, InfractionDisagreed, InfractionCancelled},
	InfractionAgreed:    {},
	InfractionDisagreed: {},
	InfractionCancelled: {},
}

// CanMoveTo reports whether an infraction may go from s to t.
func (s InfractionStatus) CanMoveTo(t InfractionStatus) bool { return infractionMoves.can(s, t) }

// Final reports whether s is a closed infraction's status.
func (s InfractionStatus) Final() bool { return infractionMoves.final(s) }
