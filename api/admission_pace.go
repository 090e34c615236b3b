package api

import (
	"math"
	"time"

	"golang.org/x/time/rate"
)

// Pacing. Refusing only at the limit let creates in by the hundred
// between two reads of the queues and none for seconds after: offered ten
// times the lifecycle's peak, a second accepted 546 creates and the next
// three none, their commits came in bursts that took the cores from the
// sends and settlements, and completions dipped with them. So from half
// the limit on, creates are admitted at the pace the workers take sends
// up, slower as the backlog nears the limit, none at it: the backlog
// settles near half the limit, and creates come in at the rate sends go
// out. Below half the limit nothing is paced (a quiet PixGate takes a
// burst whole), and with a fixed bound (no target time) nothing is.

// minPace is the slowest pace: a few creates a second still go in while
// the workers' rate is unknown or nil, so that the rate can be learned.
const minPace = 1

// pacedBurst is how much of a second's pace may come at once: requests
// arriving together are not refused for their timing alone.
const pacedBurst = 50 * time.Millisecond

// newPace is the pacer of an admission with a target time, nil otherwise.
func newPace(queueTime time.Duration) *rate.Limiter {
	if queueTime <= 0 {
		return nil
	}
	return rate.NewLimiter(minPace, 1)
}

// paced says whether a create may go in with b tasks waiting against
// limit, and takes its turn when it may.
func (a *admission) paced(at time.Time, b, limit int64) bool {
	if a.pace == nil || 2*b < limit {
		return true
	}
	sends := math.Float64frombits(a.sendsRate.Load())
	r := 2 * sends * float64(limit-b) / float64(limit)
	a.pace.SetLimitAt(at, rate.Limit(max(r, minPace)))
	return a.pace.AllowN(at, 1)
}

// setSendsRate is the sends' rate for the checks to pace by, and sizes
// the pace's burst to it.
func (a *admission) setSendsRate(r float64, at time.Time) {
	a.sendsRate.Store(math.Float64bits(r))
	if a.pace != nil {
		a.pace.SetBurstAt(at, max(1, int(r*pacedBurst.Seconds())))
	}
}
