package contract

// PathInfractions is the list of infractions (ours, with the other MED
// routes of PixGate's extension; see docs/provider.md): POST an
// InfractionsRequest, get one InfractionsPage. A notification can be lost
// and consult-transaction reads only an infraction already known, so the
// list is how a receiver finds an infraction it was never told of.
const PathInfractions = "/v2/pix/infractions/list"

// Infractions paging, as the statement's: per_page defaults to
// InfractionsPerPage and may not exceed InfractionsMaxPerPage; pages count
// from 1.
const (
	InfractionsPerPage    = 100
	InfractionsMaxPerPage = 500
)

// InfractionsRequest asks for a page of the infractions opened or changed
// (closed) at or after Since.
type InfractionsRequest struct {
	// Since is in DateLayout, Brasília time.
	Since   string `json:"since"`
	Page    int    `json:"page,omitempty"`
	PerPage int    `json:"per_page,omitempty"`
}

// InfractionsPage is one page of the list: each infraction as
// consult-transaction describes it (unwrapped), in the order they were
// opened. That order holds while a reader pages: a change only brings into
// the list an infraction it did not hold, which shifts the later ones a
// place on. So the reader sees every infraction the list held when it
// began, one perhaps twice, and one that entered meanwhile in the next
// listing.
type InfractionsPage struct {
	Since       string        `json:"since"`
	Page        int           `json:"page"`
	PerPage     int           `json:"per_page"`
	Pages       int           `json:"pages"`
	Total       int           `json:"total"`
	Infractions []Transaction `json:"infractions"`
}
