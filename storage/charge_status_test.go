package storage

import "testing"

// Every change of a charge's status its SQL makes, and some it refuses.
func TestChargeStatusMoves(t *testing.T) {
	checkMoves(t, chargeMoves, []move[ChargeStatus]{
		{ChargePending, ChargePaid, true},    // MarkChargePaid
		{ChargeExpired, ChargePaid, true},    // MarkChargePaid: a payment accepted late
		{ChargePending, ChargeExpired, true}, // ExpireCharge
		{ChargePending, ChargeFailed, true},  // FailCharge, FailChargeOver, a recurrence's failed registration
		{ChargeFailed, ChargePending, true},  // ReopenCharge, a recurrence reissued
		{ChargePaid, ChargeRefunded, true},   // its refunds and MED returns took it all
		{ChargePaid, ChargePending, false},
		{ChargePaid, ChargeExpired, false},
		{ChargeExpired, ChargePending, false},
		{ChargeFailed, ChargePaid, false},
		{ChargeRefunded, ChargePaid, false},
		{ChargePending, ChargeRefunded, false},
		{ChargePending, ChargePending, false},
	})
	if !chargeMoves.final(ChargeRefunded) || chargeMoves.final(ChargePaid) || chargeMoves.final(ChargeExpired) || chargeMoves.final(ChargeFailed) {
		t.Error("only REFUNDED is final")
	}
	for s, settled := range map[ChargeStatus]bool{ChargePending: false, ChargePaid: true, ChargeExpired: false, ChargeFailed: false, ChargeRefunded: true} {
		if s.Settled() != settled {
			t.Errorf("%s.Settled() = %v", s, !settled)
		}
	}
	sameStatuses(t, "charges", chargeMoves, ChargeStatuses)
}
