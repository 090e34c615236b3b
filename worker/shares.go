package worker

import (
	"errors"
	"sync"
	"time"
)

// A lane's slots are shared among providers: one provider's tasks hold at
// most its share of them at once. Without it a provider whose reads hang
// (each held for the read timeout) filled the events lane, and the paid
// charges of a healthy provider waited behind it.
//
// A task over its provider's share is not run: it returns errShareFull,
// which spends no retry and comes back after shareRetry, while the lane
// runs other providers' tasks.
type shares struct {
	most int // each provider's share

	mu   sync.Mutex
	held map[string]int
}

// errShareFull is a task not run because its provider's tasks already
// hold their share of the lane.
var errShareFull = errors.New("the provider's share of the lane is in use: the task runs again shortly")

// shareRetry is how long a task over its provider's share waits before it
// is tried again (the queue's forwarder adds up to a second).
const shareRetry = 200 * time.Millisecond

// newShares gives each provider at most half of a lane of concurrency n
// (all of it when n is 1).
func newShares(n int) *shares {
	return &shares{most: max(1, (n+1)/2), held: map[string]int{}}
}

// take holds a slot of provider's share, or says that its share is in use;
// a held slot is given back by the function it returns.
func (s *shares) take(provider string) (func(), error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.held[provider] >= s.most {
		return nil, errShareFull
	}
	s.held[provider]++
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.held[provider]--; s.held[provider] == 0 {
			delete(s.held, provider)
		}
	}, nil
}
