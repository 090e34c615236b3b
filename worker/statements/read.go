package statements

import (
	"context"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
)

// StatementReader reads one page of a provider's statement of a day: a
// connector, or only what of one a reader of statements needs.
type StatementReader interface {
	Statement(ctx context.Context, req providerclient.StatementRequest) (*providerclient.StatementPage, error)
}

// ReadStatement reads r's statement of day to its end as a reconciliation
// does (page by page, a cursor the provider repeats an error rather than a
// loop) and gives each line to each in storage's terms: a payout is a
// withdrawal, and an external id that reads as PixGate's record id (in the
// contract's form: its 32 hex digits, or the usual 36 characters) is one,
// the line's RecordID. It stops at the first error, each's or the
// provider's.
func ReadStatement(ctx context.Context, r StatementReader, day providerclient.Day, each func(storage.StatementLine) error) error {
	conn, ok := r.(providerclient.Connector)
	if !ok {
		conn = statementOnly{r: r}
	}
	src := newSource(ctx, conn, day)
	for src.Next() {
		if err := each(src.Line()); err != nil {
			return err
		}
	}
	return src.Err()
}

// statementOnly lends a StatementReader the Connector a source reads
// through; a source calls Statement alone.
type statementOnly struct {
	providerclient.Connector
	r StatementReader
}

func (s statementOnly) Statement(ctx context.Context, req providerclient.StatementRequest) (*providerclient.StatementPage, error) {
	return s.r.Statement(ctx, req)
}
