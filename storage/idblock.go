package storage

import (
	"context"
	"sync"

	"github.com/jackc/pgx/v5"

	"github.com/pixgate/pixgate/storage/ledger"
)

// idBlock hands out ids of a sequence that this process reserved in
// blocks: one round trip draws idBlockSize of them, so that a statement
// that needs its row's id beforehand (to build an outbox message from it)
// takes no round trip of its own. Ids are unique; they are neither gapless
// (a process that stops leaves the rest of its block unused) nor in the
// order of use across processes.
type idBlock struct {
	sequence string

	mu   sync.Mutex
	ids  []int64
	size int
}

// idBlockSize is how many ids one draw reserves.
const idBlockSize = 32

func newIDBlock(sequence string) *idBlock { return &idBlock{sequence: sequence, size: idBlockSize} }

// next returns an id no other call, in this process or another, gets.
func (b *idBlock) next(ctx context.Context, q ledger.Querier) (int64, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.ids) == 0 {
		rows, _ := q.Query(ctx, `SELECT nextval($1::regclass) FROM generate_series(1, $2)`, b.sequence, b.size)
		ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
		if err != nil {
			return 0, err
		}
		b.ids = ids
	}
	id := b.ids[0]
	b.ids = b.ids[1:]
	return id, nil
}
