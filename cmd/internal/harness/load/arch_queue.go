package load

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// archQueue is the arch lifecycle's durable queue, done bare with
// go-redis: a message is pushed onto a pending list (LPUSH), a consumer
// moves it atomically onto an active list (BLMOVE), where it stays while
// it is handled, and removes it from there when done (LREM): three Redis
// commands a hop, and a consumer that dies mid-task leaves its message in
// the active list for a re-drive instead of losing it.
type archQueue struct {
	rdb             *redis.Client
	pending, active string
}

func newArchQueue(rdb *redis.Client, name string) archQueue {
	return archQueue{rdb: rdb, pending: "arch:" + name + ":pending", active: "arch:" + name + ":active"}
}

// push enqueues msg.
func (q archQueue) push(ctx context.Context, msg string) error {
	return q.rdb.LPush(ctx, q.pending, msg).Err()
}

// archQueueWait is how long one BLMOVE blocks before its consumer looks
// whether it should stop.
const archQueueWait = time.Second

// consume runs n consumers of the queue until ctx ends. A message whose
// handler fails stays in the active list and the failure goes to fail.
func (q archQueue) consume(ctx context.Context, wg *sync.WaitGroup, n int, handle func(ctx context.Context, msg string) error, fail func(error)) {
	for range n {
		wg.Go(func() {
			for ctx.Err() == nil {
				msg, err := q.rdb.BLMove(ctx, q.pending, q.active, "RIGHT", "LEFT", archQueueWait).Result()
				if errors.Is(err, redis.Nil) || ctx.Err() != nil {
					continue
				}
				if err != nil {
					fail(fmt.Errorf("%s: %w", q.pending, err))
					sleepCtx(ctx, 100*time.Millisecond)
					continue
				}
				// The handler finishes what it began even when the phase
				// ends meanwhile: the lifecycles begun are the phase's.
				hctx := context.WithoutCancel(ctx)
				if err := handle(hctx, msg); err != nil {
					fail(fmt.Errorf("%s: %w", q.pending, err))
					continue
				}
				if err := q.rdb.LRem(hctx, q.active, 1, msg).Err(); err != nil {
					fail(fmt.Errorf("%s: %w", q.active, err))
				}
			}
		})
	}
}
