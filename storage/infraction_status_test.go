package storage

import "testing"

// An infraction opens once and closes once, from OPEN.
func TestInfractionStatusMoves(t *testing.T) {
	checkMoves(t, infractionMoves, []move[InfractionStatus]{
		{InfractionOpen, InfractionAgreed, true}, // CloseInfraction, WHERE status = 'OPEN'
		{InfractionOpen, InfractionDisagreed, true},
		{InfractionOpen, InfractionCancelled, true},
		{InfractionOpen, InfractionOpen, false},
		{InfractionAgreed, InfractionOpen, false},
		{InfractionAgreed, InfractionDisagreed, false},
		{InfractionDisagreed, InfractionAgreed, false},
		{InfractionCancelled, InfractionAgreed, false},
	})
	for _, s := range InfractionStatuses {
		if s.Final() != (s != InfractionOpen) {
			t.Errorf("%s.Final() = %v", s, s.Final())
		}
	}
	if InfractionOpen.CanMoveTo("CLOSED") || InfractionStatus("CLOSED").Final() {
		t.Error("an unknown status is a move or final")
	}
	sameStatuses(t, "infractions", infractionMoves, InfractionStatuses)
}
