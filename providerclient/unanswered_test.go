package providerclient

import (
	"errors"
	"testing"
)

// A refused read completing a transaction already found proves nothing
// absent: it becomes an unknown outcome, saying what could not be read;
// other errors pass as they are.
func TestUnansweredTurnsARefusalIntoAnUnknownOutcome(t *testing.T) {
	refused := &Error{Op: OpRead, Kind: ErrRejected, Absent: true, Message: "400"}
	err := Unanswered(refused, "who paid")
	var pe *Error
	if !errors.As(err, &pe) || !errors.Is(pe.Kind, ErrUnknownOutcome) || pe.Absent || pe.Message != "who paid could not be listed: 400" {
		t.Fatalf("refusal became %+v", pe)
	}
	down := &Error{Op: OpRead, Kind: ErrUnavailable, Message: "503"}
	if got := Unanswered(down, "who paid"); got != error(down) || down.Message != "503" {
		t.Fatalf("an outage became %v", got)
	}
}
