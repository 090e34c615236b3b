package chaos

import (
	"context"
	"net/http"
	"time"
)

// pay pays charge r at the sandbox that holds it, trying again while the
// sandbox does not answer; an outcome it never learns is looked up at the
// end.
func (l *load) pay(ctx context.Context, r *record) {
	at := time.Now()
	l.m.update(func() { r.payAttempted = at })
	for try := 0; try < 5; try++ {
		sb, code, err := l.payAt(ctx, r)
		switch {
		case err == nil && code == http.StatusOK:
			l.m.update(func() { r.paidAt, r.payUnknown, r.refundable = at, false, true })
			return
		case err == nil && code == http.StatusConflict:
			// Not PENDING: an earlier try that lost its answer paid it, or
			// it expired.
			if st, err := sb.status(ctx, r.pixID); err == nil && st == "PAID" {
				l.m.update(func() { r.paidAt, r.payUnknown, r.refundable = at, false, true })
			}
			return
		case err == nil && code == http.StatusNotFound:
			l.stats.note(r.scenario, "charge unknown to the sandboxes at payment")
			return
		}
		l.m.update(func() { r.payUnknown = true })
		sleep(ctx, time.Second)
	}
}

// payAt asks the sandbox of r's provider to pay it or, while the provider
// is not known (v2 does not say it), each sandbox in turn until one knows
// the charge; it notes the sandbox that did.
func (l *load) payAt(ctx context.Context, r *record) (*sandboxClient, int, error) {
	var (
		sb   *sandboxClient
		code int
		err  error
	)
	for _, sb = range l.candidates(r) {
		if code, err = sb.pay(ctx, r.pixID); err != nil || code != http.StatusNotFound {
			break
		}
	}
	if err == nil && code != http.StatusNotFound {
		l.m.update(func() { r.provider = sb.name })
	}
	return sb, code, err
}

// candidates are the sandboxes that may hold charge r: its provider's, or
// every one while that is not known.
func (l *load) candidates(r *record) []*sandboxClient {
	var provider string
	l.m.update(func() { provider = r.provider })
	for _, sb := range l.sbs {
		if sb.name == provider {
			return []*sandboxClient{sb}
		}
	}
	return l.sbs
}

// statusAt is charge r's status at the sandbox that holds it ("" when
// none knows it).
func (l *load) statusAt(ctx context.Context, r *record) (string, error) {
	for _, sb := range l.candidates(r) {
		if st, err := sb.status(ctx, r.pixID); err != nil || st != "" {
			return st, err
		}
	}
	return "", nil
}
