package storagetest

import (
	"context"
	"sync"
	"testing"

	"golang.org/x/sync/semaphore"
)

// budget is the process's ProcessConns, shared by the tests running in
// parallel.
var budget = semaphore.NewWeighted(ProcessConns)

// templateConns is what building the template holds: the migrations'
// lock and the connection they run on.
const templateConns = 2

// parallelTemplate builds the process's template for the first test to
// run in parallel, holding templateConns of the budget, before that test
// reserves its own.
var parallelTemplate = sync.OnceValue(func() error {
	if err := budget.Acquire(context.Background(), templateConns); err != nil {
		return err
	}
	defer budget.Release(templateConns)
	_, err := templateOnce()
	return explainRefusal(err)
})

// reservations is what each test running in parallel reserved (Parallel)
// and what it opened so far (Use).
var reservations sync.Map // testing.TB → *reservation

type reservation struct {
	mu             sync.Mutex
	reserved, used int
}

// Parallel runs the test in parallel with the process's other tests that
// call it, holding n of ProcessConns until it ends: once the tests that
// run one at a time are done, it waits until the tests running beside it
// leave n free (the first of them migrates the process's template
// beforehand, holding two). n is the most the test holds at once, its
// database's creation and drop included: they happen before it opens a
// connection and after it closed them all; a test that opens none
// reserves 0. A test that holds more than it reserved (see Use) fails. A
// test that does not call Parallel runs alone, with all of ProcessConns.
func Parallel(t *testing.T, n int) {
	t.Helper()
	if n < 0 || n > ProcessConns {
		t.Fatalf("storagetest: a test reserves from 0 to %d connections, not %d", ProcessConns, n)
	}
	t.Parallel()
	if n > 0 {
		if err := parallelTemplate(); err != nil {
			t.Fatalf("storagetest: template database: %v", err)
		}
		if err := budget.Acquire(context.Background(), int64(n)); err != nil {
			t.Fatalf("storagetest: %v", err)
		}
		t.Cleanup(func() { budget.Release(int64(n)) })
	}
	reservations.Store(t, &reservation{reserved: n})
	t.Cleanup(func() { reservations.Delete(t) })
}

// Use counts n more connections that the test may hold from now on (a
// pool's most, a process's, a connection of its own) until it calls the
// function returned, once they are closed: for a test running in
// parallel, what it holds at once is then bounded by what it reserved,
// and the test fails at the first opening past it. For a test that runs
// alone it counts nothing.
func Use(t testing.TB, n int) (closed func()) {
	t.Helper()
	v, ok := reservations.Load(t)
	if !ok {
		return func() {}
	}
	r := v.(*reservation)
	r.mu.Lock()
	r.used += n
	used, reserved := r.used, r.reserved
	r.mu.Unlock()
	if used > reserved {
		t.Fatalf("storagetest: the test opens up to %d Postgres connections and reserved %d (storagetest.Parallel): reserve what it holds at once", used, reserved)
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			r.mu.Lock()
			r.used -= n
			r.mu.Unlock()
		})
	}
}
