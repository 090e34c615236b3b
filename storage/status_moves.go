package storage

// statusMoves is one record kind's allowed status changes: for each status, the
// statuses it may move to. Every status of the kind is a key, a final one
// with no move, so the table is also the list of the kind's statuses. The
// SQL that changes a record's status guards the change itself (WHERE
// status = ...); the table says the same in Go, and the kind's test holds
// the two together.
type statusMoves[S ~string] map[S][]S

// can reports whether a record may move from from to to.
func (m statusMoves[S]) can(from, to S) bool {
	for _, s := range m[from] {
		if s == to {
			return true
		}
	}
	return false
}

// final reports whether s is a status of the kind that moves nowhere.
func (m statusMoves[S]) final(s S) bool {
	out, ok := m[s]
	return ok && len(out) == 0
}
