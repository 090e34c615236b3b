package sandbox

import (
	"errors"
	"net/http"
	"time"

	"github.com/pixgate/pixgate/storage/money/due"
)

// The sandbox's clock: the day the rules of a recurrence's cycles count
// (the scheduling window, the retries' days, a cycle left without retry)
// is Today, Brasília's today moved forward by an offset the clock control
// sets, so that a test runs a year of cycles in seconds. Instants (when a
// cycle was created or paid) stay real time. The offset is not stored:
// a restarted sandbox starts on the real day, as its faults start clear.

// Clock is the body of GET and POST /sandbox/clock.
type Clock struct {
	Today string `json:"today"`
}

// Today is the sandbox's day: Brasília's today plus the clock's offset.
func (s *Sandbox) Today() due.Date {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.todayLocked(time.Now())
}

// todayLocked is Today at now. Callers hold s.mu.
func (s *Sandbox) todayLocked(now time.Time) due.Date {
	return due.Today(now).AddDays(s.dayOffset)
}

// dayWatcher is a face that acts on the days the clock passes (woovi's
// own cobrs). dayMoved is called without s.mu held.
type dayWatcher interface {
	dayMoved(now time.Time)
}

// SetToday moves the clock to d, never before the real today, then
// applies what the passing days end: a cycle waiting for a retry that can
// no longer come expires; then the face does what the new day calls for.
func (s *Sandbox) SetToday(d due.Date) error {
	now := time.Now()
	real := due.Today(now)
	if d.IsZero() || d.Before(real) {
		return errors.New("today must be a day, not before the real today " + real.String())
	}
	s.mu.Lock()
	s.dayOffset = d.Sub(real)
	for _, r := range s.order {
		if r.kind == cycleKind {
			// A store that refuses leaves it for the next read.
			_ = s.lapseCycle(r, now)
		}
	}
	s.mu.Unlock()
	if w, ok := s.face.(dayWatcher); ok {
		w.dayMoved(now)
	}
	return nil
}

func (s *Sandbox) handleGetClock(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, Clock{Today: s.Today().String()})
}

func (s *Sandbox) handleSetClock(w http.ResponseWriter, r *http.Request) {
	var body Clock
	if !decodeJSON(w, r, &body) {
		return
	}
	var v validation
	if d, ok := v.day("today", body.Today, true); !ok {
		v.write(w)
		return
	} else if err := s.SetToday(d); err != nil {
		writeControl(w, Transaction{}, err)
		return
	}
	writeJSON(w, http.StatusOK, Clock{Today: s.Today().String()})
}
