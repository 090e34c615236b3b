package recurrence

// RecurrenceStatus is where a recurrence (the payer's authorisation, the
// BCB's rec) stands. The first five are the BCB's RecStatus [API Pix]
// under PixGate's names; Completed and Failed are PixGate's own.
type RecurrenceStatus string

// Recurrence statuses.
const (
	// RecurrenceCreated: registered at the provider, waiting for the payer's
	// consent (CRIADA).
	RecurrenceCreated RecurrenceStatus = "CREATED"
	// RecurrenceApproved: the payer consented; cycles are charged (APROVADA).
	RecurrenceApproved RecurrenceStatus = "APPROVED"
	// RecurrenceRejected: the payer refused the consent (REJEITADA, with a
	// code AP13 or AP14 in encerramento.rejeicao).
	RecurrenceRejected RecurrenceStatus = "REJECTED"
	// RecurrenceExpired: no answer within the consent's validity (EXPIRADA).
	RecurrenceExpired RecurrenceStatus = "EXPIRED"
	// RecurrenceCancelled: cancelled by the payer, their bank, the
	// integrator or the provider (CANCELADA, encerramento.cancelamento).
	RecurrenceCancelled RecurrenceStatus = "CANCELLED"
	// RecurrenceCompleted: every cycle of a bounded calendar reached a final
	// status (PixGate's; the BCB's rec stays APROVADA).
	RecurrenceCompleted RecurrenceStatus = "COMPLETED"
	// RecurrenceFailed: the provider did not register it; the integrator may
	// send the same request again (PixGate's, as a charge's FAILED).
	RecurrenceFailed RecurrenceStatus = "FAILED"
)

// RecurrenceEvent is what moves a recurrence.
type RecurrenceEvent string

// Recurrence events.
const (
	RecurrenceApprove  RecurrenceEvent = "approve"  // the payer consented
	RecurrenceReject   RecurrenceEvent = "reject"   // the payer refused
	RecurrenceExpire   RecurrenceEvent = "expire"   // the consent's validity passed
	RecurrenceCancel   RecurrenceEvent = "cancel"   // either side cancelled
	RecurrenceComplete RecurrenceEvent = "complete" // the last cycle is final
	RecurrenceFail     RecurrenceEvent = "fail"     // the provider refused it
	RecurrenceReissue  RecurrenceEvent = "reissue"  // sent again after a failure
)

// recurrences is every transition of a recurrence. The BCB cancels a
// recurrence in CRIADA or APROVADA (PATCH /rec/{idRec} refuses one
// "expirada, cancelada ou rejeitada" [API Pix], RecOperacaoInvalida).
var recurrences = machine[RecurrenceStatus, RecurrenceEvent]{kind: "recurrence", edges: map[RecurrenceStatus]map[RecurrenceEvent]RecurrenceStatus{
	RecurrenceCreated: {
		RecurrenceApprove: RecurrenceApproved,
		RecurrenceReject:  RecurrenceRejected,
		RecurrenceExpire:  RecurrenceExpired,
		RecurrenceCancel:  RecurrenceCancelled,
		RecurrenceFail:    RecurrenceFailed,
	},
	RecurrenceApproved: {
		RecurrenceCancel:   RecurrenceCancelled,
		RecurrenceComplete: RecurrenceCompleted,
	},
	RecurrenceFailed:    {RecurrenceReissue: RecurrenceCreated},
	RecurrenceRejected:  {},
	RecurrenceExpired:   {},
	RecurrenceCancelled: {},
	RecurrenceCompleted: {},
}}

// Transition is the status e leads s to, or a *TransitionError.
func (s RecurrenceStatus) Transition(e RecurrenceEvent) (RecurrenceStatus, error) {
	return recurrences.transition(s, e)
}

// Valid reports whether s is a recurrence status.
func (s RecurrenceStatus) Valid() bool { return recurrences.known(s) }

// Final reports whether s is the end of the recurrence.
func (s RecurrenceStatus) Final() bool { return recurrences.known(s) && recurrences.terminal(s) }

// BCB is the status's name in the BCB's RecStatus, "" for PixGate's own.
func (s RecurrenceStatus) BCB() string { return recurrenceBCB[s] }

var recurrenceBCB = map[RecurrenceStatus]string{
	RecurrenceCreated:   "CRIADA",
	RecurrenceApproved:  "APROVADA",
	RecurrenceRejected:  "REJEITADA",
	RecurrenceExpired:   "EXPIRADA",
	RecurrenceCancelled: "CANCELADA",
}

// RecurrenceStatusFromBCB is PixGate's status for a RecStatus value.
func RecurrenceStatusFromBCB(name string) (RecurrenceStatus, bool) {
	for s, n := range recurrenceBCB {
		if n == name {
			return s, true
		}
	}
	return "", false
}
