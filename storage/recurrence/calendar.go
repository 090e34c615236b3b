package recurrence

import (
	"fmt"

	"github.com/pixgate/pixgate/storage/money/due"
)

// MaxCycles bounds a count-bounded calendar (PixGate's choice: the BCB sets
// no count, only an optional end date; 520 is ten years of weekly cycles).
const MaxCycles = 520

// Calendar is when a recurrence's cycles fall due: cycle n (from 0) is due
// n periods after Start. It ends after End (the BCB's dataFinal, "Data
// final da vigência") or after Count cycles (PixGate's form of the same
// bound; sent to providers as the last cycle's due date), or never when
// both are zero ("autorizações por tempo indeterminado", [API Pix]
// calendario.dataFinal).
type Calendar struct {
	Periodicity Periodicity `json:"periodicity"`
	// Start is the first cycle's due date (dataInicial, "Data estimada de
	// primeiro pagamento").
	Start due.Date `json:"start"`
	// End, when set, is the last day a cycle may be due.
	End due.Date `json:"end,omitzero"`
	// Count, when set, is how many cycles there are.
	Count int `json:"count,omitempty"`
}

// Validate checks the calendar as a request carries it, on the day today
// (Brasília): the BCB refuses a dataInicial before the recurrence's
// creation and a dataFinal before dataInicial ([API Pix],
// RecOperacaoInvalida). The first problem is a *FieldError below
// "calendar".
func (c Calendar) Validate(today due.Date) error {
	switch {
	case !c.Periodicity.Valid():
		return fieldErr("calendar.periodicity", fmt.Sprintf("must be one of %v", Periodicities))
	case c.Start.IsZero():
		return fieldErr("calendar.start", "is required")
	case c.Start.Before(today):
		return fieldErr("calendar.start", "must not be before today")
	case !c.End.IsZero() && c.Count != 0:
		return fieldErr("calendar.count", "must not be given with calendar.end")
	case !c.End.IsZero() && c.End.Before(c.Start):
		return fieldErr("calendar.end", "must not be before calendar.start")
	case c.Count < 0 || c.Count > MaxCycles:
		return fieldErr("calendar.count", fmt.Sprintf("must be between 1 and %d", MaxCycles))
	case !c.End.IsZero() && !c.Periodicity.After(c.Start, MaxCycles).After(c.End):
		return fieldErr("calendar.end", fmt.Sprintf("must leave at most %d cycles", MaxCycles))
	}
	return nil
}

// Due is cycle n's due date; false when the calendar has no cycle n.
func (c Calendar) Due(n int) (due.Date, bool) {
	if n < 0 || (c.Count > 0 && n >= c.Count) {
		return due.Date{}, false
	}
	d := c.Periodicity.After(c.Start, n)
	if !c.End.IsZero() && d.After(c.End) {
		return due.Date{}, false
	}
	return d, true
}

// Cycles is how many cycles a bounded calendar has; false when it is open.
func (c Calendar) Cycles() (int, bool) {
	switch {
	case c.Count > 0:
		return c.Count, true
	case c.End.IsZero():
		return 0, false
	}
	n := c.cycleAt(c.End)
	return n + 1, true
}

// LastDue is a bounded calendar's last due date (what providers take as
// the end: the BCB's dataFinal, sent for a Count too).
func (c Calendar) LastDue() (due.Date, bool) {
	n, ok := c.Cycles()
	if !ok {
		return due.Date{}, false
	}
	return c.Due(n - 1)
}

// Cycle is the cycle whose span holds day d: Due(n) ≤ d < Due(n+1). A
// charge due on d belongs to that cycle; the BCB takes one live charge
// per cycle ([API Pix], CobROperacaoInvalida). False before the start or
// after the last cycle's span.
func (c Calendar) Cycle(d due.Date) (int, bool) {
	if d.Before(c.Start) {
		return 0, false
	}
	n := c.cycleAt(d)
	if _, ok := c.Due(n); !ok {
		return 0, false
	}
	return n, true
}

// cycleAt is the n with After(Start, n) ≤ d < After(Start, n+1), d not
// before Start, whatever the bounds.
func (c Calendar) cycleAt(d due.Date) int {
	var n int
	if c.Periodicity == Weekly {
		n = d.Sub(c.Start) / 7
	} else {
		n = monthsBetween(c.Start, d) / months[c.Periodicity]
	}
	for n > 0 && c.Periodicity.After(c.Start, n).After(d) {
		n--
	}
	for !c.Periodicity.After(c.Start, n+1).After(d) {
		n++
	}
	return n
}
