package worker

import (
	"context"

	"github.com/hibiken/asynq"
)

// taskStackBytes is how deep a task's goroutine stack is made before the
// task runs: about what a settlement (the deepest path: the queue library,
// the middlewares, the provider client, the database driver) uses.
const taskStackBytes = 16 << 10

// warmStack grows each task's goroutine stack once, while it is shallow,
// before the task runs. The queue library runs every task on a goroutine
// of its own, which starts with a small stack; a task's calls then grew it
// two or three times, each growth copying the stack and adjusting every
// frame on it: 10% of the worker's CPU at the lifecycle's peak (profile in
// docs/performance.md). Grown here, one copy of a few frames does it.
func warmStack(next asynq.Handler) asynq.Handler {
	return asynq.HandlerFunc(func(ctx context.Context, t *asynq.Task) error {
		growStack()
		return next.ProcessTask(ctx, t)
	})
}

// stackProbe is read by growStack, so that its frame is kept.
var stackProbe int

// growStack has a frame of taskStackBytes: calling it grows the stack to
// hold it, and the stack stays that size when it returns.
//
//go:noinline
func growStack() byte {
	var frame [taskStackBytes]byte
	return frame[stackProbe]
}
