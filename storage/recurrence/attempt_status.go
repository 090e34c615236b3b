package recurrence

// AttemptStatus is where one attempt to settle a cycle's charge stands:
// the BCB's tentativas[].status [API Pix] under PixGate's names.
type AttemptStatus string

// Attempt statuses.
const (
	AttemptRequested AttemptStatus = "REQUESTED" // sent to the payer's bank (SOLICITADA)
	AttemptScheduled AttemptStatus = "SCHEDULED" // the payer's bank scheduled it (AGENDADA)
	AttemptPaid      AttemptStatus = "PAID"      // settled (PAGA)
	AttemptRejected  AttemptStatus = "REJECTED"  // refused, with a code (REJEITADA)
	AttemptExpired   AttemptStatus = "EXPIRED"   // its day passed unpaid (EXPIRADA)
	AttemptCancelled AttemptStatus = "CANCELLED" // cancelled by either side (CANCELADA)
)

// AttemptEvent is what moves an attempt.
type AttemptEvent string

// Attempt events.
const (
	AttemptSchedule AttemptEvent = "schedule"
	AttemptPay      AttemptEvent = "pay"
	AttemptReject   AttemptEvent = "reject"
	AttemptExpire   AttemptEvent = "expire"
	AttemptCancel   AttemptEvent = "cancel"
)

// attempts is every transition of an attempt. Only one attempt of a cycle
// is open at a time: POST /cobr/{txid}/retentativa/{data} is refused while
// one is SOLICITADA or AGENDADA [API Pix], CobROperacaoInvalida.
var attempts = machine[AttemptStatus, AttemptEvent]{kind: "attempt", edges: map[AttemptStatus]map[AttemptEvent]AttemptStatus{
	AttemptRequested: {
		AttemptSchedule: AttemptScheduled,
		AttemptPay:      AttemptPaid,
		AttemptReject:   AttemptRejected,
		AttemptExpire:   AttemptExpired,
		AttemptCancel:   AttemptCancelled,
	},
	AttemptScheduled: {
		AttemptPay:    AttemptPaid,
		AttemptReject: AttemptRejected,
		AttemptExpire: AttemptExpired,
		AttemptCancel: AttemptCancelled,
	},
	AttemptPaid:      {},
	AttemptRejected:  {},
	AttemptExpired:   {},
	AttemptCancelled: {},
}}

// Transition is the status e leads s to, or a *TransitionError.
func (s AttemptStatus) Transition(e AttemptEvent) (AttemptStatus, error) {
	return attempts.transition(s, e)
}

// Valid reports whether s is an attempt status.
func (s AttemptStatus) Valid() bool { return attempts.known(s) }

// Open reports whether s still waits for its outcome.
func (s AttemptStatus) Open() bool { return attempts.known(s) && !attempts.terminal(s) }

// BCB is the status's name in the BCB's tentativas[].status.
func (s AttemptStatus) BCB() string { return attemptBCB[s] }

var attemptBCB = map[AttemptStatus]string{
	AttemptRequested: "SOLICITADA",
	AttemptScheduled: "AGENDADA",
	AttemptPaid:      "PAGA",
	AttemptRejected:  "REJEITADA",
	AttemptExpired:   "EXPIRADA",
	AttemptCancelled: "CANCELADA",
}

// AttemptStatusFromBCB is PixGate's status for a tentativas[].status value.
func AttemptStatusFromBCB(name string) (AttemptStatus, bool) {
	for s, n := range attemptBCB {
		if n == name {
			return s, true
		}
	}
	return "", false
}

// AttemptKind is the BCB's tentativas[].tipo [API Pix]. The schema lists
// the values without defining them; its examples show AGND as a cycle's
// first attempt and NTAG as one asked after it expired (cobRResponse3).
type AttemptKind string

// Attempt kinds.
const (
	AttemptFirst  AttemptKind = "AGND" // the attempt on the due date
	AttemptRetry  AttemptKind = "NTAG" // a retry the receiver asked for
	AttemptResend AttemptKind = "RIFL" // listed by the schema, not described
)

// CountsAsRetry reports whether an attempt of kind k spends one of the
// policy's retries: the retries are the ones the receiver asks for
// (POST /cobr/{txid}/retentativa/{data} [API Pix]), which PixGate counts
// itself. The payer's bank's second try on the due date does not count
// [Asaas]; RIFL is recorded and not counted, since no source read says
// what it is (a retry the provider then refuses for the count moves no
// money: the cycle ends as when no retry is left).
func (k AttemptKind) CountsAsRetry() bool { return k == AttemptRetry }
