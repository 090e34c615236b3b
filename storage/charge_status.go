package storage

// ChargeStatus is where a charge stands.
type ChargeStatus string

// Charge statuses.
const (
	ChargePending  ChargeStatus = "PENDING"  // QR code issued (or being issued), waiting for the payer
	ChargePaid     ChargeStatus = "PAID"     // paid; the net amount is in the wallet
	ChargeExpired  ChargeStatus = "EXPIRED"  // not paid before its expiry, confirmed with the provider
	ChargeFailed   ChargeStatus = "FAILED"   // the provider did not issue it
	ChargeRefunded ChargeStatus = "REFUNDED" // fully refunded
)

// ChargeStatuses are every status, in lifecycle order.
var ChargeStatuses = []ChargeStatus{ChargePending, ChargePaid, ChargeExpired, ChargeFailed, ChargeRefunded}

// chargeMoves is every change of a charge's status, each guarded by its
// SQL: paid from PENDING, or from EXPIRED when the provider accepted a
// payment late (MarkChargePaid); expired from PENDING (ExpireCharge);
// failed while never issued (FailCharge, a failover, a recurrence's
// first charge) and back to PENDING when issued again (ReviveCharge, a
// recurrence reissued); refunded once a PAID charge's whole amount went
// back (a refund or MED return completed, an agreed infraction that
// returned it all). Only REFUNDED is final.
var chargeMoves = statusMoves[ChargeStatus]{
	ChargePending:  {ChargePaid, ChargeExpired, ChargeFailed},
	ChargeExpired:  {ChargePaid},
	ChargeFailed:   {ChargePending},
	ChargePaid:     {ChargeRefunded},
	ChargeRefunded: {},
}

// Settled reports whether the charge was paid: PAID, or REFUNDED since.
func (s ChargeStatus) Settled() bool { return s == ChargePaid || s == ChargeRefunded }
