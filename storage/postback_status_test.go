package storage

import "testing"

// An attempt moves a PENDING postback only; a redelivery brings any back.
func TestPostbackStatusMoves(t *testing.T) {
	checkMoves(t, postbackMoves, []move[PostbackStatus]{
		{PostbackPending, PostbackDelivered, true}, // RecordPostbackAttempt, cur.status = 'PENDING'
		{PostbackPending, PostbackStopped, true},
		{PostbackPending, PostbackFailed, true},
		{PostbackDelivered, PostbackPending, true}, // RedeliverPostback, a replay
		{PostbackStopped, PostbackPending, true},
		{PostbackFailed, PostbackPending, true},
		{PostbackDelivered, PostbackFailed, false}, // a late attempt never undoes a final outcome
		{PostbackFailed, PostbackDelivered, false},
		{PostbackStopped, PostbackDelivered, false},
		{PostbackDelivered, PostbackStopped, false},
	})
	for _, s := range PostbackStatuses {
		if postbackMoves.final(s) {
			t.Errorf("%s is final: every postback may be redelivered", s)
		}
	}
	for o, s := range outcomeStatus {
		if s != PostbackPending && !postbackMoves.can(PostbackPending, s) {
			t.Errorf("outcome %s leads to %s, which a PENDING postback cannot reach", o, s)
		}
	}
	if len(outcomeStatus) != 4 {
		t.Errorf("%d outcomes mapped", len(outcomeStatus))
	}
	sameStatuses(t, "postbacks", postbackMoves, PostbackStatuses)
}
