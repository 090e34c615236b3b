package storage

// PostbackStatus is where a postback's delivery stands.
type PostbackStatus string

// Postback statuses.
const (
	PostbackPending   PostbackStatus = "PENDING"   // to be attempted (again) at next_attempt_at
	PostbackDelivered PostbackStatus = "DELIVERED" // the receiver answered 2xx
	PostbackStopped   PostbackStatus = "STOPPED"   // the receiver answered 410 Gone: never again
	PostbackFailed    PostbackStatus = "FAILED"    // given up (too old, or an unusable URL)
)

// PostbackStatuses are every status, PENDING first.
var PostbackStatuses = []PostbackStatus{PostbackPending, PostbackDelivered, PostbackStopped, PostbackFailed}

// postbackMoves is every change of a postback's status. An attempt moves
// a PENDING postback only (RecordPostbackAttempt, cur.status =
// 'PENDING'), to what its outcome says (outcomeStatus; a retry leaves it
// PENDING, no change); an integrator's or operator's redelivery puts a
// postback of any status back to PENDING (RedeliverPostback, a replay of
// a range). No status is final: even a delivered postback may be asked
// again.
var postbackMoves = statusMoves[PostbackStatus]{
	PostbackPending:   {PostbackDelivered, PostbackStopped, PostbackFailed},
	PostbackDelivered: {PostbackPending},
	PostbackStopped:   {PostbackPending},
	PostbackFailed:    {PostbackPending},
}

// outcomeStatus is the status an attempt's outcome leaves a PENDING
// postback in.
var outcomeStatus = map[PostbackOutcome]PostbackStatus{
	OutcomeDelivered: PostbackDelivered,
	OutcomeRetry:     PostbackPending,
	OutcomeStopped:   PostbackStopped,
	OutcomeFailed:    PostbackFailed,
}
