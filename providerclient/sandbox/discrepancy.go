package sandbox

import (
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/storage/money"
)

// Discrepancies the sandbox injects between its books and PixGate's, for
// tests and demos of reconciliation. An unknown PIX is a real transaction
// (money arrives that no charge of PixGate's asked for); the others change
// only what the statements show of a settled transaction. Statement
// changes live in memory: a restarted sandbox shows its statements as
// they really are.
const (
	// DiscrepancyUnknownPix: a PIX received now, paying no charge PixGate
	// created (no postback, no external id).
	DiscrepancyUnknownPix = "unknown_pix"
	// DiscrepancyAmount: the statement shows a settled transaction with
	// another amount.
	DiscrepancyAmount = "amount_changed"
	// DiscrepancyDropped: the statement leaves a settled transaction out.
	DiscrepancyDropped = "dropped"
	// DiscrepancyDuplicate: the statement shows a settled transaction
	// twice.
	DiscrepancyDuplicate = "duplicate"
)

// alteration is how the statements show one settled transaction.
type alteration struct {
	amount              money.Money // 0: its own
	dropped, duplicated bool
}

// InjectUnknownPix receives a PIX of amount now that pays no charge of
// PixGate's: the account's balance grows and the statements show it.
func (s *Sandbox) InjectUnknownPix(amount money.Money) (Transaction, error) {
	if amount <= 0 {
		return Transaction{}, errors.New("amount must be positive")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now()
	rec := &record{kind: contract.TypeReceivePix, id: newTransactionID(), amount: amount, status: contract.StatusPaid,
		created: now, approved: now, expires: now, endToEndID: newEndToEndID('E', now), paidBy: defaultPayer()}
	if err := s.commit(rec, func() { s.insert(rec); s.available += amount }); err != nil {
		return Transaction{}, err
	}
	return s.view(rec, now), nil
}

// AlterStatement makes the statements show settled transaction id
// differently: kind DiscrepancyAmount with the amount to show,
// DiscrepancyDropped or DiscrepancyDuplicate. ErrNotFound: no such
// transaction; ErrConflict: it has not settled.
func (s *Sandbox) AlterStatement(id, kind string, amount money.Money) (Transaction, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.records[id]
	if r == nil || r.kind == contract.TypeInfraction {
		return Transaction{}, ErrNotFound
	}
	now := time.Now()
	if _, ok := settledAt(r); !ok {
		return s.view(r, now), fmt.Errorf("%w: %s %s has not settled", ErrConflict, r.kind, r.id)
	}
	a := s.altered[id]
	switch kind {
	case DiscrepancyAmount:
		if amount <= 0 {
			return Transaction{}, errors.New("amount must be positive")
		}
		a.amount = amount
	case DiscrepancyDropped:
		a.dropped = true
	case DiscrepancyDuplicate:
		a.duplicated = true
	default:
		return Transaction{}, fmt.Errorf("kind must be %s, %s or %s", DiscrepancyAmount, DiscrepancyDropped, DiscrepancyDuplicate)
	}
	s.altered[id] = a
	return s.view(r, now), nil
}

// handleDiscrepancy is POST /sandbox/discrepancies {"kind", "transaction_id",
// "amount"}: unknown_pix takes the amount; amount_changed, dropped and
// duplicate name a settled transaction, amount_changed the amount to show.
func (s *Sandbox) handleDiscrepancy(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Kind          string      `json:"kind"`
		TransactionID string      `json:"transaction_id"`
		Amount        money.Money `json:"amount"`
	}
	if !decodeJSON(w, r, &body) {
		return
	}
	var (
		t   Transaction
		err error
	)
	if body.Kind == DiscrepancyUnknownPix {
		t, err = s.InjectUnknownPix(body.Amount)
	} else {
		t, err = s.AlterStatement(body.TransactionID, body.Kind, body.Amount)
	}
	writeControl(w, t, err)
}
