package providerclient

// Lane is a kind of call to a provider with a circuit breaker (and, in a
// fleet, a bulkhead) of its own, so that one kind failing or hanging never
// refuses another: sends that time out do not stop the reads that credit
// paid charges, nor a slow statement the sends.
type Lane string

// The lanes, and the operations each one carries.
const (
	// LaneCreate: charges created (OpCharge), a recurrence's cycles sent,
	// retried and cancelled (OpSendCycle, OpRetryCycle, OpCancelCycle).
	LaneCreate Lane = "create"
	// LaneSend: money sent (OpPayout, OpRefund) and defences filed
	// (OpDefendInfraction).
	LaneSend Lane = "send"
	// LaneRead: the reads that decide and credit (OpRead, OpReadInfraction,
	// OpListInfractions), key lookups (OpLookupKey) and the balance
	// (OpBalance, also a fleet's probe).
	LaneRead Lane = "read"
	// LaneStatement: statements, read in pages by reconciliation and the
	// provider audit (OpStatement).
	LaneStatement Lane = "statement"
)

// Lanes are every lane, in a fixed order.
var Lanes = []Lane{LaneCreate, LaneSend, LaneRead, LaneStatement}

// LaneOf is the lane of operation op (one of the Op names); LaneRead for
// any other.
func LaneOf(op string) Lane {
	switch op {
	case OpCharge, OpSendCycle, OpRetryCycle, OpCancelCycle:
		return LaneCreate
	case OpPayout, OpRefund, OpDefendInfraction:
		return LaneSend
	case OpStatement:
		return LaneStatement
	default:
		return LaneRead
	}
}
