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
			t.Status, t.Charge = wooviapi.TransactionPayment, &c
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
