package worker

import (
	"errors"
	"slices"
	"sync"
	"time"
)

// A lane's slots are shared among providers: a provider whose tasks are
// slow holds at most its share of them at once. Without it a provider
// whose reads hang (each held for the read timeout) filled the events
// lane, and the paid charges of a healthy provider waited behind it.
//
// A provider is held to its share only while it is slow: while one of its
// tasks has held its slot longer than shares.slow. Fast, a provider takes
// the whole lane, as the only provider of a deployment does at its peak.
// A task over its provider's share is not run: it returns errShareFull,
// which spends no retry and comes back after shareRetry, while the lane
// runs other providers' tasks.
type shares struct {
	most int           // each slow provider's share
	slow time.Duration // a slot held longer makes its provider slow
	now  func() time.Time

	mu   sync.Mutex
	held map[string][]time.Time // when each held slot was taken, by provider
}

// errShareFull is a task not run because its provider is slow and its
// tasks already hold their share of the lane.
var errShareFull = errors.New("the provider is slow and its share of the lane is in use: the task runs again shortly")

// shareRetry is how long a task over its provider's share waits before it
// is tried again (the queue's forwarder adds up to a second).
const shareRetry = 200 * time.Millisecond

// shareSlow is how long a task may hold its slot before its provider is
// held to its share: several times a healthy provider's answer.
const shareSlow = time.Second

// newShares gives each slow provider at most half of a lane of
// concurrency n (all of it when n is 1).
func newShares(n int) *shares {
	return &shares{most: max(1, (n+1)/2), slow: shareSlow, now: time.Now, held: map[string][]time.Time{}}
}

// take holds a slot for provider, or says that it is slow and its share
// is in use; a held slot is given back by the function it returns.
func (s *shares) take(provider string) (func(), error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	held := s.held[provider]
	if len(held) >= s.most && now.Sub(slices.MinFunc(held, time.Time.Compare)) > s.slow {
		return nil, errShareFull
	}
	s.held[provider] = append(held, now)
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		held := s.held[provider]
		if i := slices.Index(held, now); i >= 0 {
			held = slices.Delete(held, i, i+1)
		}
		if len(held) == 0 {
			delete(s.held, provider)
			return
		}
		s.held[provider] = held
	}, nil
}
