package sandbox

import (
	"net/http"

	"github.com/pixgate/pixgate/storage/money"
)

// Balance is the sandbox account's money: Available can be spent, Pending
// is held by payments and refunds still PROCESSING, and Balance is their
// sum.
type Balance struct {
	Balance   money.Money `json:"balance"`
	Available money.Money `json:"available"`
	Pending   money.Money `json:"pending"`
	Currency  string      `json:"currency"`
}

// Balance returns the sandbox account's balance.
func (s *Sandbox) Balance() Balance {
	s.mu.Lock()
	defer s.mu.Unlock()
	return Balance{Balance: s.available + s.pending, Available: s.available, Pending: s.pending, Currency: "BRL"}
}

// handleBalance is POST /v2/balance.
func (s *Sandbox) handleBalance(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, s.Balance())
}
