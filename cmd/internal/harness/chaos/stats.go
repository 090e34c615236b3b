package chaos

import (
	"sync"
	"time"
)

// stats counts, per scenario, the operations the load started and the
// requests that failed, by code.
type stats struct {
	mu  sync.Mutex
	per []*scenarioStats
}

type scenarioStats struct {
	ops      int
	shed     int // operations not started: too many in flight
	codes    map[string]int
	failedAt []time.Time // when each failed attempt started, refusals (4xx) aside
	notes    map[string]int
}

func newStats(scenarios int) *stats {
	s := &stats{per: make([]*scenarioStats, scenarios)}
	for i := range s.per {
		s.per[i] = &scenarioStats{codes: map[string]int{}, notes: map[string]int{}}
	}
	return s
}

func (s *stats) at(sc int) *scenarioStats {
	if sc < 0 || sc >= len(s.per) {
		return nil
	}
	return s.per[sc]
}

func (s *stats) op(sc int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p := s.at(sc); p != nil {
		p.ops++
	}
}

func (s *stats) shed(sc int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p := s.at(sc); p != nil {
		p.shed++
	}
}

// fail counts a failed attempt. A refusal (a definitive 4xx) is counted
// but is not a failure to serve: it does not make the recovery longer.
func (s *stats) fail(sc int, code string, refusal bool, at time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p := s.at(sc); p != nil {
		p.codes[code]++
		if !refusal {
			p.failedAt = append(p.failedAt, at)
		}
	}
}

// note counts something worth telling about a scenario ("refund refused:
// charge not PAID yet").
func (s *stats) note(sc int, what string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p := s.at(sc); p != nil {
		p.notes[what]++
	}
}

// snapshot copies the statistics of scenario sc.
func (s *stats) snapshot(sc int) scenarioStats {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.at(sc)
	if p == nil {
		return scenarioStats{}
	}
	out := scenarioStats{ops: p.ops, shed: p.shed, codes: map[string]int{}, notes: map[string]int{},
		failedAt: append([]time.Time(nil), p.failedAt...)}
	for k, v := range p.codes {
		out.codes[k] = v
	}
	for k, v := range p.notes {
		out.notes[k] = v
	}
	return out
}
