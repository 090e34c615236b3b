package contract

import "github.com/pixgate/pixgate/storage/money"

// PixGate's statement extension of the contract (ours: the family
// publishes no statement; PixGate's sandbox serves this one, see
// docs/provider.md). POST a StatementRequest, get one Statement page: the
// transactions the account settled on a day (America/Sao_Paulo), in the
// order they settled, and the account's balance when the day opened and
// when it closed (or now, for today).
const PathStatement = "/v2/statement"

// Statement paging: per_page defaults to StatementPerPage and may not
// exceed StatementMaxPerPage; pages count from 1.
const (
	StatementPerPage    = 500
	StatementMaxPerPage = 1000
)

// StatementRequest asks for a page of a day's statement.
type StatementRequest struct {
	// Date is the day, "YYYY-MM-DD".
	Date    string `json:"date"`
	Page    int    `json:"page,omitempty"`
	PerPage int    `json:"per_page,omitempty"`
}

// Statement is one page of a day's statement.
type Statement struct {
	Date           string          `json:"date"`
	Page           int             `json:"page"`
	PerPage        int             `json:"per_page"`
	Pages          int             `json:"pages"`
	Total          int             `json:"total"`
	OpeningBalance money.Money     `json:"opening_balance"`
	ClosingBalance money.Money     `json:"closing_balance"`
	Lines          []StatementLine `json:"lines"`
}

// StatementLine is one settled transaction: a RECEIVEPIX paid in, a
// PAYMENT, REFUND or MED_RETURN sent out. Amount is what moved, fee what
// the provider charged for it; dateApproval when it settled (DateLayout,
// Brasília time).
type StatementLine struct {
	TransactionType string      `json:"transactionType"`
	TransactionID   string      `json:"transactionId"`
	ExternalID      string      `json:"external_id,omitempty"`
	EndToEndID      string      `json:"endToEndId,omitempty"`
	Amount          money.Money `json:"amount"`
	Fee             money.Money `json:"fee"`
	Status          string      `json:"status"`
	DateApproval    string      `json:"dateApproval"`
}
