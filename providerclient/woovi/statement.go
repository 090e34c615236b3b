package woovi

import (
	"context"
	"net/url"
	"strconv"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/wooviapi"
	"github.com/pixgate/pixgate/storage/money"
)

// A day's statement, paged from Woovi's transaction list (GET
// /api/v1/transaction, start and end of the day, skip and limit). Woovi
// also has a statement route (GET /api/v1/statement) whose entries carry
// the balance after each, but they name their transaction only by a
// "tracking ID" no record of PixGate's holds, and the document's example
// gives the balance in reais where every other amount of the API is in
// centavos; the transaction list names charges by their correlationID
// (PixGate's id) and PIX sent and returned by their end-to-end id. Its
// items carry no balance (Capabilities StatementBalances false). Fees and
// other movements (FEE, INTERNAL_TRANSFER, BALANCE_BLOCK, ...) are not
// transactions PixGate made and are left out; only CONFIRMED movements
// (or those the list gives no state) are settled. A cursor is the number
// of items already read (skip).

const statementLimit = 100

func (c *connector) Statement(ctx context.Context, req providerclient.StatementRequest) (*providerclient.StatementPage, error) {
	op := providerclient.OpStatement
	skip := 0
	if req.Cursor != "" {
		n, err := strconv.Atoi(req.Cursor)
		if err != nil || n < 0 {
			return nil, &providerclient.Error{Op: op, Kind: providerclient.ErrRejected, Message: "bad cursor " + strconv.Quote(req.Cursor)}
		}
		skip = n
	}
	start, end := req.Day.Start(), req.Day.End()
	q := url.Values{"start": {start.UTC().Format(time.RFC3339)}, "end": {end.Add(-time.Millisecond).UTC().Format(time.RFC3339Nano)},
		"skip": {strconv.Itoa(skip)}, "limit": {strconv.Itoa(statementLimit)}}
	var ans wooviapi.TransactionList
	if err := c.get(ctx, wooviapi.PathTransactions+"?"+q.Encode(), &ans); err != nil {
		if e, ok := err.(*providerclient.Error); ok {
			e.Op = op
		}
		return nil, err
	}
	out := &providerclient.StatementPage{}
	for _, t := range ans.Transactions {
		l, ok := statementLine(t)
		if ok && !l.SettledAt.Before(start) && l.SettledAt.Before(end) {
			out.Lines = append(out.Lines, l)
		}
	}
	if ans.PageInfo.HasNextPage && len(ans.Transactions) > 0 {
		out.Next = strconv.Itoa(skip + len(ans.Transactions))
	}
	return out, nil
}

// statementLine is a settled PIX of the list in PixGate's terms; ok is
// false for what is not one.
func statementLine(t wooviapi.Transaction) (providerclient.StatementLine, bool) {
	kind, state := movement(t)
	if state != "" && state != wooviapi.TransactionConfirmed {
		return providerclient.StatementLine{}, false
	}
	l := providerclient.StatementLine{EndToEndID: endToEndID(t), Amount: money.Money(t.Value), SettledAt: parseTime(t.Time),
		Status: providerclient.StatusCompleted}
	switch kind {
	case wooviapi.TransactionPayment:
		l.Kind, l.Status = providerclient.KindCharge, providerclient.StatusPaid
		if t.Charge != nil {
			l.ProviderID, l.ExternalID = t.Charge.CorrelationID, t.Charge.CorrelationID
		}
	case wooviapi.TransactionWithdraw:
		l.Kind = providerclient.KindPayout
	case wooviapi.TransactionRefund:
		l.Kind = providerclient.KindRefund
	default:
		return providerclient.StatementLine{}, false
	}
	l.Direction = providerclient.DirectionOf(l.Kind)
	return l, true
}

// movement is an item's kind (PAYMENT, WITHDRAW, REFUND, FEE) and state,
// whichever of "status" and "type" holds each (see wooviapi.Transaction).
func movement(t wooviapi.Transaction) (kind, state string) {
	if isMovement(t.Status) {
		return t.Status, t.Type
	}
	return t.Type, t.Status
}

// endToEndID is an item's end-to-end id, under either of the names the
// document gives it (endToEndId, endToEndID).
func endToEndID(t wooviapi.Transaction) string {
	if t.EndToEndID != "" {
		return t.EndToEndID
	}
	return t.EndToEndIDAlt
}

func isMovement(s string) bool {
	return s == wooviapi.TransactionPayment || s == wooviapi.TransactionWithdraw || s == wooviapi.TransactionRefund || s == "FEE"
}
