package sandbox

import (
	"net/http"
	"strings"
	"time"

	"github.com/pixgate/pixgate/providerclient/contract"
)

// TransactionList is what GET /sandbox/transactions answers: the sandbox's
// whole ledger, to compare with the books of the one using it.
type TransactionList struct {
	Transactions []Transaction `json:"transactions"`
}

// Transactions returns every charge, payment, refund and MED return the
// sandbox holds, in creation order, as consult-transaction describes each;
// kind (contract.TypeReceivePix, TypePayment, TypeRefund, TypeMedReturn,
// TypeInfraction or TypeRecurrence) keeps only that type, "" keeps all that
// move money (not the infractions, nor the recurrences).
func (s *Sandbox) Transactions(kind string) []Transaction {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now()
	out := make([]Transaction, 0, len(s.order))
	for _, r := range s.order {
		if kind == "" && r.kind != contract.TypeInfraction && r.kind != contract.TypeRecurrence || r.kind == kind {
			out = append(out, s.view(r, now))
		}
	}
	return out
}

// handleList is GET /sandbox/transactions[?type=RECEIVEPIX|PAYMENT|REFUND|MED_RETURN|INFRACTION].
func (s *Sandbox) handleList(w http.ResponseWriter, r *http.Request) {
	kind := strings.ToUpper(strings.TrimSpace(r.URL.Query().Get("type")))
	switch kind {
	case "", contract.TypeReceivePix, contract.TypePayment, contract.TypeRefund, contract.TypeMedReturn, contract.TypeInfraction:
	default:
		var v validation
		v.add("type", "must be RECEIVEPIX, PAYMENT, REFUND, MED_RETURN or INFRACTION")
		v.write(w)
		return
	}
	writeJSON(w, http.StatusOK, TransactionList{Transactions: s.Transactions(kind)})
}
