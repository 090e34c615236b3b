package recurrence

// CycleStatus is where one cycle's charge (the BCB's cobr) stands.
// Scheduled and Failed are PixGate's own; the others are the BCB's
// CobRStatus [API Pix] under PixGate's names.
type CycleStatus string

// Cycle statuses.
const (
	// CycleScheduled: PixGate holds the cycle and will send its charge when
	// the scheduling window opens (no cobr yet).
	CycleScheduled CycleStatus = "SCHEDULED"
	// CycleCreated: the provider accepted the cycle's charge (CRIADA).
	CycleCreated CycleStatus = "CREATED"
	// CycleActive: the payer's bank scheduled the debit (ATIVA).
	CycleActive CycleStatus = "ACTIVE"
	// CyclePaid: an attempt settled; the cycle is credited (CONCLUIDA).
	CyclePaid CycleStatus = "PAID"
	// CycleExpired: no attempt settled and none may follow (EXPIRADA).
	CycleExpired CycleStatus = "EXPIRED"
	// CycleRejected: the payer's bank rejected it with a code that ends
	// the cycle (REJEITADA, encerramento.rejeicao).
	CycleRejected CycleStatus = "REJECTED"
	// CycleCancelled: cancelled by either side before its first attempt,
	// or with its recurrence (CANCELADA).
	CycleCancelled CycleStatus = "CANCELLED"
	// CycleFailed: PixGate could not have its charge accepted before the
	// window closed (the provider refused it or could not be reached);
	// PixGate's own.
	CycleFailed CycleStatus = "FAILED"
)

// CycleEvent is what moves a cycle.
type CycleEvent string

// Cycle events.
const (
	CycleSend   CycleEvent = "send"   // the provider accepted the cobr
	CycleAccept CycleEvent = "accept" // the payer's bank scheduled it
	CyclePay    CycleEvent = "pay"    // an attempt settled
	CycleExpire CycleEvent = "expire" // no attempt left
	CycleReject CycleEvent = "reject" // a rejection that ends the cycle
	CycleCancel CycleEvent = "cancel" // cancelled by either side
	CycleFail   CycleEvent = "fail"   // not accepted before the window closed
)

// cycles is every transition of a cycle. A payment may be read before the
// ATIVA that preceded it (notifications arrive in any order), so a
// created cycle may go straight to PAID.
var cycles = machine[CycleStatus, CycleEvent]{kind: "cycle", edges: map[CycleStatus]map[CycleEvent]CycleStatus{
	CycleScheduled: {
		CycleSend:   CycleCreated,
		CycleCancel: CycleCancelled,
		CycleFail:   CycleFailed,
	},
	CycleCreated: {
		CycleAccept: CycleActive,
		CyclePay:    CyclePaid,
		CycleExpire: CycleExpired,
		CycleReject: CycleRejected,
		CycleCancel: CycleCancelled,
	},
	CycleActive: {
		CyclePay:    CyclePaid,
		CycleExpire: CycleExpired,
		CycleReject: CycleRejected,
		CycleCancel: CycleCancelled,
	},
	CyclePaid:      {},
	CycleExpired:   {},
	CycleRejected:  {},
	CycleCancelled: {},
	CycleFailed:    {},
}}

// Transition is the status e leads s to, or a *TransitionError.
func (s CycleStatus) Transition(e CycleEvent) (CycleStatus, error) { return cycles.transition(s, e) }

// Valid reports whether s is a cycle status.
func (s CycleStatus) Valid() bool { return cycles.known(s) }

// Final reports whether s is the end of the cycle.
func (s CycleStatus) Final() bool { return cycles.known(s) && cycles.terminal(s) }

// BCB is the status's name in the BCB's CobRStatus, "" for PixGate's own.
func (s CycleStatus) BCB() string { return cycleBCB[s] }

var cycleBCB = map[CycleStatus]string{
	CycleCreated:   "CRIADA",
	CycleActive:    "ATIVA",
	CyclePaid:      "CONCLUIDA",
	CycleExpired:   "EXPIRADA",
	CycleRejected:  "REJEITADA",
	CycleCancelled: "CANCELADA",
}

// CycleStatusFromBCB is PixGate's status for a CobRStatus value.
func CycleStatusFromBCB(name string) (CycleStatus, bool) {
	for s, n := range cycleBCB {
		if n == name {
			return s, true
		}
	}
	return "", false
}
