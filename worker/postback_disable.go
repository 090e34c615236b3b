package worker

import (
	"context"
	"time"
)

// disableCheckEvery is how often the failing endpoints are looked for:
// a period counted in days needs no finer check, and the query reads the
// attempts of every endpoint with postbacks waiting.
const disableCheckEvery = time.Minute

// disableFailingEndpoints is the reconciler's step that disables the
// endpoints whose every delivery has failed for Postbacks.DisableAfter
// (counted in ticks, so that one worker checks whatever the number of
// workers). Their postbacks then wait as a paused endpoint's; a resume,
// by the integrator or an operator, delivers them. Each is logged and
// counted: the integrator's postbacks stopped, someone must know.
func (w *Worker) disableFailingEndpoints(ctx context.Context, slot int64) error {
	if every := int64(max(disableCheckEvery/w.cfg.Reconcile.Interval, 1)); slot%every != 0 {
		return nil
	}
	list, err := w.postbacks.DisableFailingEndpoints(ctx, w.now().Add(-w.cfg.Postbacks.WithDefaults().DisableAfter), w.cfg.Reconcile.Batch)
	if err != nil {
		return err
	}
	for _, e := range list {
		w.log.Warn("postback endpoint disabled: every delivery failed", "integrator_id", e.IntegratorID, "url", e.URL,
			"failing_since", e.FailingSince)
		w.metrics.endpointDisabled()
	}
	return nil
}

func (m *workerMetrics) endpointDisabled() {
	if m != nil {
		m.disabled.Inc()
	}
}
