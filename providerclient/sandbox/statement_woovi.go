package sandbox

import (
	"net/http"
	"strconv"
	"time"

	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/providerclient/wooviapi"
)

// listTransactions is the woovi face's GET /api/v1/transaction: the
// movements settled between start and end (RFC 3339), skip and limit
// paging them, from the statement every face shows. Each item names its
// kind in "status" and its state in "type", as Woovi's document types
// them.
func (f wooviFace) listTransactions(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if id := q.Get(wooviapi.ChargeParam); id != "" {
		f.chargeTransactions(w, id)
		return
	}
	from, errFrom := time.Parse(time.RFC3339Nano, q.Get("start"))
	to, errTo := time.Parse(time.RFC3339Nano, q.Get("end"))
	skip, errSkip := atoiOr(q.Get("skip"), 0)
	limit, errLimit := atoiOr(q.Get("limit"), 20)
	if errFrom != nil || errTo != nil || errSkip != nil || errLimit != nil || skip < 0 || limit < 1 || limit > 1000 {
		f.writeError(w, http.StatusBadRequest, "start and end must be RFC 3339 dates; skip 0 or more; limit from 1 to 1000")
		return
	}
	s := f.s
	s.mu.Lock()
	defer s.mu.Unlock()
	lines, _, _ := s.statement(from, to.Add(time.Nanosecond))
	i, j := min(skip, len(lines)), min(skip+limit, len(lines))
	var ans wooviapi.TransactionList
	ans.Transactions = make([]wooviapi.Transaction, 0, j-i)
	for _, l := range lines[i:j] {
		t := wooviapi.Transaction{Value: int64(l.amount), Time: wooviTime(l.r.approved), EndToEndID: l.r.endToEndID,
			TransactionID: l.r.id, Type: wooviapi.TransactionConfirmed}
		switch l.r.kind {
		case contract.TypeReceivePix:
			c := f.chargeOf(l.r, time.Now())
			t.Status, t.Charge, t.Payer = wooviapi.TransactionPayment, &c, wooviPerson(l.r.paidBy)
		case cycleKind:
			t.Status, t.Payer = wooviapi.TransactionPayment, wooviPerson(l.r.paidBy)
		case contract.TypePayment:
			t.Status = wooviapi.TransactionWithdraw
		default:
			t.Status = wooviapi.TransactionRefund
		}
		ans.Transactions = append(ans.Transactions, t)
	}
	ans.PageInfo.Skip, ans.PageInfo.Limit, ans.PageInfo.HasNextPage = skip, limit, j < len(lines)
	writeJSON(w, http.StatusOK, ans)
}

func atoiOr(s string, def int) (int, error) {
	if s == "" {
		return def, nil
	}
	return strconv.Atoi(s)
}

// chargeTransactions is GET /api/v1/transaction?charge=: the movements of
// one charge, named by its correlationID (Woovi's document: "the charge ID
// or correlation ID or transaction ID of charge"): the PAYMENT that paid
// it, with its endToEndId and payer, and its refunds that settled, as
// they happened (not as a statement discrepancy shows them). An unknown
// charge has none.
func (f wooviFace) chargeTransactions(w http.ResponseWriter, id string) {
	s := f.s
	s.mu.Lock()
	defer s.mu.Unlock()
	var ans wooviapi.TransactionList
	ans.Transactions = []wooviapi.Transaction{}
	if c := f.record(id, contract.TypeReceivePix); c != nil && c.status != contract.StatusPending {
		now := time.Now()
		for _, o := range s.order {
			at, settled := settledAt(o)
			switch {
			case !settled:
			case o == c:
				ch := f.chargeOf(c, now)
				ans.Transactions = append(ans.Transactions, wooviapi.Transaction{Value: int64(c.amount), Time: wooviTime(at),
					EndToEndID: c.endToEndID, TransactionID: c.id, Type: wooviapi.TransactionConfirmed,
					Status: wooviapi.TransactionPayment, Charge: &ch, Payer: wooviPerson(c.paidBy)})
			case returnsMoney(o.kind) && o.pixID == c.id:
				ans.Transactions = append(ans.Transactions, wooviapi.Transaction{Value: int64(o.amount), Time: wooviTime(at),
					EndToEndID: o.endToEndID, TransactionID: o.id, Type: wooviapi.TransactionConfirmed,
					Status: wooviapi.TransactionRefund})
			}
		}
	}
	ans.PageInfo.Limit = len(ans.Transactions)
	writeJSON(w, http.StatusOK, ans)
}

// wooviPerson is who paid, as Woovi's Customer: a name, an email and a
// taxID object typed BR:CPF or BR:CNPJ.
func wooviPerson(p contract.Party) *wooviapi.Person {
	if p.Name == "" && p.TaxID == "" {
		return nil
	}
	out := &wooviapi.Person{Name: p.Name, Email: p.Email}
	if p.TaxID != "" {
		typ := wooviapi.TaxIDCNPJ
		if len(p.TaxID) == 11 {
			typ = wooviapi.TaxIDCPF
		}
		out.TaxID = &wooviapi.TaxID{TaxID: p.TaxID, Type: typ}
	}
	return out
}
