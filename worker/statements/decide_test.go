package statements

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"slices"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
)

// The loop's decisions over a fake store: no database, no network.

// fakeDay is a provider day in the fake store.
type fakeDay struct {
	provider, day string
	at            time.Time // due
	attempts      int
	done          bool
}

type fakeStore struct {
	days        []*fakeDay
	runs        []string // "provider day", in order
	lines       map[string]int
	failed      map[string]time.Time // retry of a day set aside
	scheduleErr error
}

func newFakeStore() *fakeStore {
	return &fakeStore{lines: map[string]int{}, failed: map[string]time.Time{}}
}

func (s *fakeStore) RunReconciliation(_ context.Context, spec storage.ReconSpec, src storage.StatementSource) (storage.ReconRun, error) {
	n := 0
	for src.Next() {
		n++
	}
	if err := src.Err(); err != nil {
		return storage.ReconRun{}, err
	}
	key := spec.Provider + " " + spec.Day
	s.runs = append(s.runs, key)
	s.lines[key] = n
	return storage.ReconRun{Provider: spec.Provider, Day: spec.Day, Status: "done", Lines: int64(n)}, nil
}

func (s *fakeStore) ScheduleReconciliation(_ context.Context, provider, day string, at time.Time) error {
	if s.scheduleErr != nil {
		return s.scheduleErr
	}
	for _, d := range s.days {
		if d.provider == provider && d.day == day {
			return nil
		}
	}
	s.days = append(s.days, &fakeDay{provider: provider, day: day, at: at})
	return nil
}

// ClaimReconciliation claims the first due day not done and not set
// aside, oldest first; the fake's clock is the days' own (every day
// scheduled is due).
func (s *fakeStore) ClaimReconciliation(context.Context, time.Duration) (string, string, int, bool, error) {
	for _, d := range s.days {
		if _, aside := s.failed[d.provider+" "+d.day]; !d.done && !aside {
			d.done = true
			d.attempts++
			return d.provider, d.day, d.attempts - 1, true, nil
		}
	}
	return "", "", 0, false, nil
}

func (s *fakeStore) ReconciliationFailed(_ context.Context, provider, day string, retry time.Time) error {
	s.failed[provider+" "+day] = retry
	return nil
}

func (s *fakeStore) OpenReconExceptions(context.Context) (map[string]map[storage.ReconKind]int64, error) {
	return nil, nil
}

// statementless is a provider whose contract has no statement.
type statementless struct{ provider }

func (*statementless) Capabilities() providerclient.Capabilities {
	return providerclient.Capabilities{}
}

// failing is a provider whose statement cannot be read.
type failing struct{ provider }

func (*failing) Statement(context.Context, providerclient.StatementRequest) (*providerclient.StatementPage, error) {
	return nil, errors.New("statement unavailable")
}

func newFakeReconciler(st Store, now time.Time, conns ...providerclient.Connector) *Reconciler {
	r := New(Config{}, st, func() []providerclient.Connector { return conns }, slog.New(slog.NewTextHandler(io.Discard, nil)), nil)
	r.now = func() time.Time { return now }
	return r
}

// A tick schedules each statement provider's last CatchUp days, never a
// statementless one's, and runs every due day once, each from its own
// statement.
func TestTickSchedulesAndRunsEachDay(t *testing.T) {
	st := newFakeStore()
	now := time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC)
	r := newFakeReconciler(st, now, &provider{name: "a"}, &statementless{provider{name: "none"}})
	r.tick(context.Background())
	want := []string{"a 2026-11-28", "a 2026-11-27", "a 2026-11-26"}
	if !slices.Equal(st.runs, want) {
		t.Fatalf("runs %v, want %v", st.runs, want)
	}
	for _, k := range want {
		if st.lines[k] != 1 {
			t.Errorf("%s read %d lines, want its statement's 1", k, st.lines[k])
		}
	}
	r.tick(context.Background())
	if len(st.runs) != 3 {
		t.Fatalf("a second tick ran again: %v", st.runs)
	}
}

// A day that fails is set aside, backing off from its attempts; a day of a
// provider that is gone or has no statement waits a day; one bad day
// never stops the others.
func TestFailedDaysAreSetAsideAndOthersRun(t *testing.T) {
	st := newFakeStore()
	now := time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC)
	st.days = []*fakeDay{{provider: "gone", day: "2026-11-20"}, {provider: "a", day: "bad-day"}}
	r := newFakeReconciler(st, now, &failing{provider{name: "a"}}, &provider{name: "b"}, &statementless{provider{name: "c"}})
	st.days = append(st.days, &fakeDay{provider: "c", day: "2026-11-21"})
	r.tick(context.Background())
	for key, want := range map[string]time.Duration{
		"gone 2026-11-20": 24 * time.Hour, // no such provider
		"c 2026-11-21":    24 * time.Hour, // no statement
		"a bad-day":       time.Minute,    // first attempt: a minute
		"a 2026-11-28":    time.Minute,    // the statement failed
		"a 2026-11-27":    time.Minute,
	} {
		if got, ok := st.failed[key]; !ok || got.Sub(now) != want {
			t.Errorf("%s set aside until %v (%v), want %v after now", key, got, ok, want)
		}
	}
	want := []string{"b 2026-11-28", "b 2026-11-27", "b 2026-11-26"}
	if got := slices.DeleteFunc(slices.Clone(st.runs), func(k string) bool { return k[0] != 'b' }); !slices.Equal(got, want) {
		t.Fatalf("b's days despite the others' failures: %v, want %v", st.runs, want)
	}
}

// The backoff doubles with the attempts, up to an hour.
func TestFailedDayBackoff(t *testing.T) {
	now := time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC)
	for attempts, want := range map[int]time.Duration{0: time.Minute, 1: 2 * time.Minute, 3: 8 * time.Minute, 5: 32 * time.Minute, 6: time.Hour, 20: time.Hour} {
		st := newFakeStore()
		r := newFakeReconciler(st, now, &failing{provider{name: "a"}})
		r.runClaimed(context.Background(), "a", "2026-11-28", attempts)
		if got := st.failed["a 2026-11-28"].Sub(now); got != want {
			t.Errorf("after %d attempts: retry in %v, want %v", attempts, got, want)
		}
	}
}

// A database that refuses the schedule ends the tick: nothing is claimed
// that the schedule could not see.
func TestScheduleFailureEndsTheTick(t *testing.T) {
	st := newFakeStore()
	st.scheduleErr = errors.New("connection refused")
	st.days = []*fakeDay{{provider: "a", day: "2026-11-20"}}
	newFakeReconciler(st, time.Now(), &provider{name: "a"}).tick(context.Background())
	if len(st.runs) != 0 {
		t.Fatalf("ran %v after the schedule failed", st.runs)
	}
}
