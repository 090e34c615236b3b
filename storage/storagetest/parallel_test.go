package storagetest

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// Tests running in parallel never hold more than ProcessConns together:
// three that reserve more than half of it each run one after another.
func TestParallelTestsShareTheProcessConns(t *testing.T) {
	var running, most atomic.Int32
	var mu sync.Mutex
	t.Run("group", func(t *testing.T) {
		for i := range 3 {
			t.Run(fmt.Sprint(i), func(t *testing.T) {
				Parallel(t, ProcessConns/2+1)
				n := running.Add(1)
				mu.Lock()
				most.Store(max(most.Load(), n))
				mu.Unlock()
				NewDatabaseURL(t)
				running.Add(-1)
			})
		}
	})
	if most.Load() != 1 {
		t.Fatalf("%d tests reserving %d of %d ran at once", most.Load(), ProcessConns/2+1, ProcessConns)
	}
}

// fatalTB records Fatalf instead of ending the test.
type fatalTB struct {
	testing.TB
	fatal string
}

func (f *fatalTB) Helper() {}

func (f *fatalTB) Fatalf(format string, args ...any) { f.fatal = fmt.Sprintf(format, args...) }

// A test that holds more than it reserved fails, saying so; what it
// closed is not counted, nor is what a test that runs alone opens.
func TestUseBeyondTheReservationFails(t *testing.T) {
	tb := &fatalTB{TB: t}
	reservations.Store(tb, &reservation{reserved: 3})
	t.Cleanup(func() { reservations.Delete(tb) })
	Use(tb, 2)
	closed := Use(tb, 1)
	closed()
	closed() // once
	Use(tb, 1)
	if tb.fatal != "" {
		t.Fatalf("within the reservation: %s", tb.fatal)
	}
	Use(tb, 1)
	if !strings.Contains(tb.fatal, "opens up to 4 Postgres connections and reserved 3") {
		t.Fatalf("past the reservation: %q", tb.fatal)
	}

	alone := &fatalTB{TB: t}
	Use(alone, ProcessConns+1)
	if alone.fatal != "" {
		t.Fatalf("a test running alone: %s", alone.fatal)
	}
}
