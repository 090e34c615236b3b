package storage

// The statuses of reconciliation's records: an item's, a day's and a
// run's. Every change is made by the SQL of reconciliation_merge.go,
// reconciliation_resolve.go and reconciliation_schedule.go; the tables
// below say which.

// ReconItemStatus is where an item stands: an exception is open until an
// operator resolves it; an expected item and a match are info.
type ReconItemStatus string

// Item statuses.
const (
	ReconOpen     ReconItemStatus = "open"
	ReconResolved ReconItemStatus = "resolved"
	ReconInfo     ReconItemStatus = "info"
)

// reconItemMoves is every change of an item's status. Only an operator
// resolves, and only an open item (ResolveReconciliationItem). A rerun
// sets every item it finds again from its new kind, open for an exception
// and info otherwise, but keeps an item resolved while its kind is the
// same (reconRefreshItemsSQL); an open item it does not find again is
// info (reconDropItemsSQL).
var reconItemMoves = statusMoves[ReconItemStatus]{
	ReconOpen:     {ReconResolved, ReconInfo},
	ReconInfo:     {ReconOpen},
	ReconResolved: {ReconOpen, ReconInfo},
}

// CanMoveTo reports whether an item may go from s to t.
func (s ReconItemStatus) CanMoveTo(t ReconItemStatus) bool { return reconItemMoves.can(s, t) }

// ReconDayStatus is a provider's day's standing result.
type ReconDayStatus string

// Day statuses.
const (
	DayDue          ReconDayStatus = "due"          // scheduled, never run to the end
	DayReconciled   ReconDayStatus = "reconciled"   // the books agree
	DayUnreconciled ReconDayStatus = "unreconciled" // an exception is open or a difference unexplained
	DayFailed       ReconDayStatus = "failed"       // never run to the end, and its last run failed
)

// reconDayMoves is every change of a day's status. A run that ends makes
// its result the day's, reconciled or not, whatever the day was
// (reconDaySQL); a run that fails marks only a day never reconciled
// (ReconciliationFailed: CASE WHEN status = 'due'); resolving its last
// open exception reconciles an unreconciled day. No day goes back to due.
var reconDayMoves = statusMoves[ReconDayStatus]{
	DayDue:          {DayReconciled, DayUnreconciled, DayFailed},
	DayFailed:       {DayReconciled, DayUnreconciled},
	DayReconciled:   {DayUnreconciled},
	DayUnreconciled: {DayReconciled},
}

// ReconRunStatus is how a run ended. A run is recorded once it ended and
// never changes (recordRun, recordFailedRun).
type ReconRunStatus string

// Run statuses.
const (
	ReconRunDone   ReconRunStatus = "done"
	ReconRunFailed ReconRunStatus = "failed"
)

// reconRunMoves: a run's status never changes.
var reconRunMoves = statusMoves[ReconRunStatus]{
	ReconRunDone:   {},
	ReconRunFailed: {},
}
