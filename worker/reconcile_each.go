package worker

import (
	"context"
	"errors"
)

// maxNamedFailures caps the record ids one failure line names.
const maxNamedFailures = 5

// forEach runs one reconciler step's work on each record, isolating the
// records from one another: a record whose work fails is counted and named,
// and the loop goes on with the next, so one bad record never stops the
// others. A step logs its failures in one line (how many, which ids, the
// first error), so an outage that fails every record does not write a line
// per record on every tick. Only the end of ctx stops the loop.
func forEach[T any](ctx context.Context, w *Worker, step string, recs []T, id func(T) string, work func(T) error) error {
	var (
		failed int
		ids    []string
		first  error
	)
	for _, r := range recs {
		if err := ctx.Err(); err != nil {
			return err
		}
		err := work(r)
		if err == nil {
			continue
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		failed++
		w.metrics.reconcileFailure(step)
		if first == nil {
			first = err
		}
		if len(ids) < maxNamedFailures {
			ids = append(ids, id(r))
		}
	}
	if failed > 0 {
		w.log.Warn("reconcile: records failed; the others went on", "step", step, "failed", failed, "of", len(recs),
			"ids", ids, "first_err", first)
	}
	return nil
}

// touchOnError moves a record whose reconciliation failed to the back of
// its queue, so that it does not head every batch, and returns the failure.
func touchOnError(err error, touch func() error) error {
	if err == nil {
		return nil
	}
	return errors.Join(err, touch())
}
