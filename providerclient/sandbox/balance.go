package sandbox

import (
	"net/http"

	"github.com/pixgate/pixgate/providerclient/contract"
)

// Balance returns the sandbox account's money: Available can be spent,
// Pending is held by payments and refunds still PROCESSING, and Balance is
// their sum.
func (s *Sandbox) Balance() contract.Balance {
	s.mu.Lock()
	defer s.mu.Unlock()
	return contract.Balance{Balance: s.available + s.pending, Available: s.available, Pending: s.pending, Currency: "BRL"}
}

// handleBalance is POST /v2/balance.
func (s *Sandbox) handleBalance(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, s.Balance())
}
