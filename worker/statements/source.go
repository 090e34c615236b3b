package statements

import (
	"context"
	"fmt"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

// source reads a day's statement page by page as storage consumes it:
// one page in memory at a time, however long the day.
type source struct {
	ctx  context.Context
	conn providerclient.Connector
	day  providerclient.Day

	page     []providerclient.StatementLine
	i        int
	cursor   string
	seen     map[string]bool // cursors asked, so a provider repeating one cannot loop
	done     bool
	err      error
	balances *providerclient.DayBalances
	line     storage.StatementLine
}

func newSource(ctx context.Context, conn providerclient.Connector, day providerclient.Day) *source {
	return &source{ctx: ctx, conn: conn, day: day, seen: map[string]bool{"": true}}
}

func (s *source) Next() bool {
	for s.i >= len(s.page) {
		if s.done || s.err != nil {
			return false
		}
		p, err := s.conn.Statement(s.ctx, providerclient.StatementRequest{Day: s.day, Cursor: s.cursor})
		if err != nil {
			s.err = err
			return false
		}
		if p.Balances != nil {
			s.balances = p.Balances
		}
		s.page, s.i = p.Lines, 0
		switch {
		case p.Next == "":
			s.done = true
		case s.seen[p.Next]:
			s.err = fmt.Errorf("the provider's statement pages loop (cursor %q again)", p.Next)
			return false
		}
		s.seen[p.Next], s.cursor = true, p.Next
	}
	s.line = storageLine(s.page[s.i])
	s.i++
	return true
}

func (s *source) Line() storage.StatementLine { return s.line }
func (s *source) Err() error                  { return s.err }

// Balances are the day's, once the statement was read to its end.
func (s *source) Balances() (opening, closing money.Money, ok bool) {
	if !s.done || s.balances == nil {
		return 0, 0, false
	}
	return s.balances.Opening, s.balances.Closing, true
}

// storageLine is a line in storage's terms: a payout is a withdrawal, and
// an external id that reads as PixGate's record id is one.
func storageLine(l providerclient.StatementLine) storage.StatementLine {
	kind := string(l.Kind)
	if l.Kind == providerclient.KindPayout {
		kind = string(storage.KindWithdrawal)
	}
	out := storage.StatementLine{Kind: kind, Direction: int(l.Direction), ProviderID: l.ProviderID, ExternalID: l.ExternalID,
		EndToEndID: l.EndToEndID, Amount: l.Amount, Fee: l.Fee, Status: string(l.Status), SettledAt: l.SettledAt}
	if id, ok := storage.ParseTransferPixID(l.ExternalID); ok {
		out.RecordID = &id
	}
	return out
}
