package provideraudit

import (
	"context"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

// The fakes: PixGate's records in memory, and providers whose balance and
// statement are scripted.

type fakeRecords struct {
	floats    map[string]money.Money
	transfers []storage.Transfer
	adjusted  map[uuid.UUID]money.Money
}

func (f *fakeRecords) FloatBalances(context.Context) (map[string]money.Money, error) {
	return f.floats, nil
}

func (f *fakeRecords) TransfersByStatementRefs(_ context.Context, provider string, ids []uuid.UUID, e2es, pixIDs []string) ([]storage.Transfer, error) {
	var out []storage.Transfer
	for _, t := range f.transfers {
		if slices.Contains(ids, t.ID) || (t.EndToEndID != nil && slices.Contains(e2es, *t.EndToEndID)) ||
			(t.PixID != nil && t.Provider == provider && slices.Contains(pixIDs, *t.PixID)) {
			out = append(out, t)
		}
	}
	return out, nil
}

func (f *fakeRecords) AmountAdjustments(_ context.Context, ids []uuid.UUID) (map[uuid.UUID]money.Money, error) {
	out := map[uuid.UUID]money.Money{}
	for _, id := range ids {
		if v, ok := f.adjusted[id]; ok {
			out[id] = v
		}
	}
	return out, nil
}

func (f *fakeRecords) EachTransferCompleted(_ context.Context, from, to time.Time, each func(storage.Transfer) error) error {
	for _, t := range f.transfers {
		if t.Status == storage.TransferCompleted && !t.FinishedAt.Before(from) && t.FinishedAt.Before(to) {
			if err := each(t); err != nil {
				return err
			}
		}
	}
	return nil
}

// fakeBooks is a provider: a balance (each read takes the next of
// balances, the last one staying), a statement by day (pages of two lines)
// or none.
type fakeBooks struct {
	mu           sync.Mutex
	noStatement  bool
	balances     []money.Money
	balanceErr   error
	reads        int
	days         map[string][]providerclient.StatementLine
	statementErr error
}

func (b *fakeBooks) Capabilities() providerclient.Capabilities {
	return providerclient.Capabilities{Balance: true, Statement: !b.noStatement}
}

func (b *fakeBooks) Balance(context.Context) (*providerclient.Balance, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.balanceErr != nil {
		return nil, b.balanceErr
	}
	v := b.balances[min(b.reads, len(b.balances)-1)]
	b.reads++
	return &providerclient.Balance{Available: v - 100, Pending: 100}, nil
}

func (b *fakeBooks) Statement(_ context.Context, req providerclient.StatementRequest) (*providerclient.StatementPage, error) {
	if b.statementErr != nil {
		return nil, b.statementErr
	}
	lines := b.days[req.Day.String()]
	from, _ := strconv.Atoi(req.Cursor)
	p := &providerclient.StatementPage{Lines: lines[from:min(from+2, len(lines))]}
	if from+2 < len(lines) {
		p.Next = strconv.Itoa(from + 2)
	}
	return p, nil
}
