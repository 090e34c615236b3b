package recurrence

// machine is one record kind's allowed transitions: for each status, the
// events it takes and the status each leads to. Every transition of a
// kind is in its one table, so what a record may do is read in one place.
type machine[S ~string, E ~string] struct {
	kind  string
	edges map[S]map[E]S
}

// transition is where e leads from from, or a *TransitionError (Repeated
// when from is already a status e leads to).
func (m machine[S, E]) transition(from S, e E) (S, error) {
	if to, ok := m.edges[from][e]; ok {
		return to, nil
	}
	return from, &TransitionError{Kind: m.kind, From: string(from), Event: string(e), Repeated: m.leadsTo(e, from)}
}

// leadsTo reports whether some status goes to s on e.
func (m machine[S, E]) leadsTo(e E, s S) bool {
	for _, out := range m.edges {
		if to, ok := out[e]; ok && to == s {
			return true
		}
	}
	return false
}

// known reports whether s is a status of the table.
func (m machine[S, E]) known(s S) bool {
	_, ok := m.edges[s]
	return ok
}

// terminal reports whether s takes no event.
func (m machine[S, E]) terminal(s S) bool { return len(m.edges[s]) == 0 }
