package sandbox

import (
	"sort"
	"time"

	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// The sandbox's statement of a span of time, built from its own ledger:
// every transaction that settled in it (a charge or a recurrence cycle
// paid, a payment, refund
// or MED return completed), in the order they settled, as the statement
// shows them (an injected discrepancy may change, drop or repeat a line),
// and the account's balance before and after it. The balances follow the
// statement's own lines from the account's opening balance, so a statement
// always adds up; what it shows differently from the sandbox's real
// transactions is exactly what was injected. Each face renders it in its
// contract's shape.

// stmtLine is one line: a settled transaction and the amount the
// statement shows for it.
type stmtLine struct {
	r      *record
	amount money.Money
}

// effect is what the line does to the balance: a charge or a recurrence
// cycle paid adds, the rest take away.
func (l stmtLine) effect() money.Money {
	if cashIn(l.r.kind) {
		return l.amount
	}
	return -l.amount
}

// cashIn reports whether a settled transaction of kind brought money in:
// a charge paid, or a recurrence's cycle.
func cashIn(kind string) bool {
	return kind == contract.TypeReceivePix || kind == contract.TypeRecurrenceCycle
}

// settledAt is when r settled, if it did.
func settledAt(r *record) (time.Time, bool) {
	switch {
	case r.kind == contract.TypeReceivePix && r.status == contract.StatusPaid:
		return r.approved, true
	case r.kind == contract.TypeRecurrenceCycle && r.status == string(recurrence.CyclePaid):
		return r.approved, true
	case (r.kind == contract.TypePayment || returnsMoney(r.kind)) && r.status == contract.StatusCompleted:
		return r.approved, true
	}
	return time.Time{}, false
}

// statement is the statement of [from, to): its lines and the balance
// before and after them. Callers hold s.mu.
func (s *Sandbox) statement(from, to time.Time) (lines []stmtLine, opening, closing money.Money) {
	// The account before any transaction: what it holds now, less what
	// every settled transaction really did to it.
	opening = s.available + s.pending
	for _, r := range s.order {
		if _, ok := settledAt(r); ok {
			opening -= stmtLine{r, r.amount}.effect()
		}
	}
	for _, r := range s.order {
		at, ok := settledAt(r)
		if !ok || !at.Before(to) {
			continue
		}
		for _, l := range s.shown(r) {
			if at.Before(from) {
				opening += l.effect()
			} else {
				lines = append(lines, l)
			}
		}
	}
	sort.SliceStable(lines, func(i, j int) bool { return lines[i].r.approved.Before(lines[j].r.approved) })
	closing = opening
	for _, l := range lines {
		closing += l.effect()
	}
	return lines, opening, closing
}

// shown is how the statement shows settled transaction r: once with its
// amount, unless a discrepancy was injected. Callers hold s.mu.
func (s *Sandbox) shown(r *record) []stmtLine {
	a, ok := s.altered[r.id]
	if !ok {
		return []stmtLine{{r, r.amount}}
	}
	l := stmtLine{r, r.amount}
	if a.amount != 0 {
		l.amount = a.amount
	}
	switch {
	case a.dropped:
		return nil
	case a.duplicated:
		return []stmtLine{l, l}
	}
	return []stmtLine{l}
}

// page cuts n items into pages of size: the bounds of page p (counted
// from first), and the number of pages (at least 1).
func page(n, p, size, first int) (from, to, pages int) {
	pages = max(1, (n+size-1)/size)
	from = min(n, max(0, p-first)*size)
	return from, min(n, from+size), pages
}
