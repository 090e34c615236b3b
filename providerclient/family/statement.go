package family

import (
	"context"
	"strconv"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/contract"
)

// Statement reads a page of a day's statement through PixGate's statement
// extension (contract.PathStatement), which a provider configured with
// Extensions serves; the family itself publishes none.
func (f *connector) Statement(ctx context.Context, req providerclient.StatementRequest) (*providerclient.StatementPage, error) {
	if !f.ext {
		return nil, unsupported(providerclient.OpStatement)
	}
	page := 1
	if req.Cursor != "" {
		n, err := strconv.Atoi(req.Cursor)
		if err != nil || n < 1 {
			return nil, &providerclient.Error{Op: providerclient.OpStatement, Kind: providerclient.ErrRejected, Message: "bad cursor " + strconv.Quote(req.Cursor)}
		}
		page = n
	}
	var st contract.Statement
	in := contract.StatementRequest{Date: req.Day.String(), Page: page, PerPage: contract.StatementPerPage}
	if err := f.base.call(ctx, providerclient.OpStatement, contract.PathStatement, in, &st); err != nil {
		return nil, err
	}
	out := &providerclient.StatementPage{Lines: make([]providerclient.StatementLine, 0, len(st.Lines)),
		Balances: &providerclient.DayBalances{Opening: st.OpeningBalance, Closing: st.ClosingBalance}}
	for _, l := range st.Lines {
		out.Lines = append(out.Lines, statementLine(l))
	}
	if page < st.Pages {
		out.Next = strconv.Itoa(page + 1)
	}
	return out, nil
}

// statementLine is a line in PixGate's terms; a transaction type the
// contract does not name keeps its name as the kind, which matches no
// record of PixGate's.
func statementLine(l contract.StatementLine) providerclient.StatementLine {
	kind := providerclient.Kind(l.TransactionType)
	switch l.TransactionType {
	case contract.TypeReceivePix:
		kind = providerclient.KindCharge
	case contract.TypePayment:
		kind = providerclient.KindPayout
	case contract.TypeRefund:
		kind = providerclient.KindRefund
	case contract.TypeMedReturn:
		kind = providerclient.KindMedReturn
	}
	return providerclient.StatementLine{
		Kind: kind, Direction: providerclient.DirectionOf(kind), ProviderID: l.TransactionID, ExternalID: l.ExternalID,
		EndToEndID: l.EndToEndID, Amount: l.Amount, Fee: l.Fee, Status: providerclient.Status(l.Status),
		SettledAt: contract.ParseDate(l.DateApproval),
	}
}
