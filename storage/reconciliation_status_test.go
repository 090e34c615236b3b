package storage

import "testing"

// Only an open item is resolved; a rerun sets the others from their kind.
func TestReconItemStatusMoves(t *testing.T) {
	checkMoves(t, reconItemMoves, []move[ReconItemStatus]{
		{ReconOpen, ReconResolved, true}, // ResolveReconciliationItem
		{ReconOpen, ReconInfo, true},     // a rerun: no longer found, or no longer an exception
		{ReconInfo, ReconOpen, true},     // a rerun: an expected item is now an exception
		{ReconResolved, ReconOpen, true}, // a rerun: an exception of another kind now
		{ReconResolved, ReconInfo, true}, // a rerun: no longer an exception
		{ReconInfo, ReconResolved, false},
		{ReconResolved, ReconResolved, false},
	})
	if ReconInfo.CanMoveTo(ReconResolved) || ReconResolved.CanMoveTo(ReconResolved) || !ReconOpen.CanMoveTo(ReconResolved) {
		t.Error("CanMoveTo does not read the table")
	}
	sameStatuses(t, "reconciliation_items", reconItemMoves, []ReconItemStatus{ReconOpen, ReconResolved, ReconInfo})
}

// A day's result is its last finished run's; a failure marks only a day
// that has none; no day is due again.
func TestReconDayStatusMoves(t *testing.T) {
	checkMoves(t, reconDayMoves, []move[ReconDayStatus]{
		{DayDue, DayReconciled, true}, // reconDaySQL
		{DayDue, DayUnreconciled, true},
		{DayDue, DayFailed, true}, // ReconciliationFailed
		{DayFailed, DayReconciled, true},
		{DayFailed, DayUnreconciled, true},
		{DayReconciled, DayUnreconciled, true}, // a rerun
		{DayUnreconciled, DayReconciled, true}, // a rerun, or the last exception resolved
		{DayReconciled, DayFailed, false},
		{DayUnreconciled, DayFailed, false},
		{DayFailed, DayDue, false},
		{DayReconciled, DayDue, false},
	})
	sameStatuses(t, "reconciliation_days", reconDayMoves, []ReconDayStatus{DayDue, DayReconciled, DayUnreconciled, DayFailed})
}

// A run is recorded as it ended and never changes.
func TestReconRunStatusMoves(t *testing.T) {
	checkMoves(t, reconRunMoves, []move[ReconRunStatus]{
		{ReconRunDone, ReconRunFailed, false},
		{ReconRunFailed, ReconRunDone, false},
	})
	if !reconRunMoves.final(ReconRunDone) || !reconRunMoves.final(ReconRunFailed) {
		t.Error("a run's status is final")
	}
	sameStatuses(t, "reconciliation_runs", reconRunMoves, nil)
	done := ReconRun{Status: ReconRunDone}
	if !done.Reconciled() || (ReconRun{Status: ReconRunFailed}).Reconciled() {
		t.Error("only a done run with nothing open reconciles")
	}
}
