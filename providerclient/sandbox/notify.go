package sandbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	mrand "math/rand/v2"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/cenkalti/backoff/v4"
)

// notification is one event to deliver, planned with the faults of the
// moment it happened.
type notification struct {
	url        string
	final      []byte
	stale      []byte // out-of-order fault: an earlier status, sent last
	then       []byte // a second event of the same change (follower), sent after final
	copies     int
	concurrent bool
	id, status string
}

// notifyLocked plans the notification of r's current state, as the face
// writes it, and starts its sender. Callers hold s.mu, which makes the
// closed check and wg.Add atomic with Close.
func (s *Sandbox) notifyLocked(r *record, now time.Time) {
	f := s.faults
	if s.closed || f.DropNotifications {
		return
	}
	url, final, stale := s.face.notification(r, now)
	if url == "" {
		return
	}
	n := notification{url: url, final: final, copies: max(1, f.DuplicateNotifications), concurrent: f.OutOfOrderNotifications,
		id: r.id, status: r.statusAt(now)}
	if f.OutOfOrderNotifications {
		n.stale = stale
	}
	if fl, ok := s.face.(follower); ok {
		n.then = fl.followUp(r, now)
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		s.deliverAll(n)
	}()
}

// follower is a face whose contract tells some changes in two events
// (woovi: a try rejected, then the retry it asks at once): followUp is
// the second's body, or nil. Callers hold s.mu.
type follower interface {
	followUp(r *record, now time.Time) []byte
}

func (s *Sandbox) deliverAll(n notification) {
	s.deliverFinal(n)
	if n.then != nil {
		s.deliver(n, n.then)
	}
}

// deliverFinal delivers n's final body, its copies and, out of order, its
// stale one.
func (s *Sandbox) deliverFinal(n notification) {
	if !n.concurrent {
		for range n.copies {
			s.deliver(n, n.final)
		}
		return
	}
	var wg sync.WaitGroup
	for _, slot := range mrand.Perm(n.copies) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Start in a shuffled order, a few milliseconds apart.
			if sleep(s.ctx, time.Duration(slot)*3*time.Millisecond+time.Duration(mrand.IntN(3))*time.Millisecond) {
				s.deliver(n, n.final)
			}
		}()
	}
	wg.Wait()
	if n.stale != nil {
		s.deliver(n, n.stale)
	}
}

// notifyFirstWait is the wait before a notification's second try; the
// waits after it double.
const notifyFirstWait = 200 * time.Millisecond

// deliver POSTs body to the notification URL until the receiver accepts
// it (2xx), as real providers retry webhooks: the waits double from
// notifyFirstWait up to Config.NotifyMaxInterval, jittered, for Config.NotifyMaxElapsed, so
// a receiver that was down (an API restarting) gets what it missed within
// seconds of coming back.
func (s *Sandbox) deliver(n notification, body []byte) {
	b := backoff.NewExponentialBackOff(
		backoff.WithInitialInterval(min(notifyFirstWait, s.cfg.NotifyMaxInterval)),
		backoff.WithMultiplier(2),
		backoff.WithRandomizationFactor(0.2),
		backoff.WithMaxInterval(s.cfg.NotifyMaxInterval),
		backoff.WithMaxElapsedTime(s.cfg.NotifyMaxElapsed),
	)
	var err error
	for attempt := 1; ; attempt++ {
		if err = s.post(n.url, body); err == nil {
			return
		}
		if attempt == 1 || attempt%10 == 0 {
			s.log.Info("sandbox notification not accepted; retrying", "transaction_id", n.id, "status", n.status,
				"host", hostOf(n.url), "attempt", attempt, "error", err)
		}
		wait := b.NextBackOff()
		if wait == backoff.Stop || !sleep(s.ctx, wait) {
			break
		}
	}
	s.log.Warn("sandbox notification not delivered", "transaction_id", n.id, "status", n.status,
		"host", hostOf(n.url), "error", err)
}

// hostOf is the host of a notification URL, whose path may hold the
// receiver's secret token and is never logged.
func hostOf(target string) string {
	if u, err := url.Parse(target); err == nil {
		return u.Host
	}
	return ""
}

func (s *Sandbox) post(target string, body []byte) error {
	s.stats.add(&s.stats.notifyAttempts)
	req, err := http.NewRequestWithContext(s.ctx, http.MethodPost, target, bytes.NewReader(body))
	if err != nil {
		return errors.New("bad postback URL")
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "pixgate-sandbox/1")
	if sg, ok := s.face.(signer); ok {
		for k, v := range sg.sign(body) {
			req.Header[k] = v
		}
	}
	resp, err := s.cfg.HTTPClient.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // without the URL, which may hold a secret
		}
		return err
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return fmt.Errorf("receiver answered %d", resp.StatusCode)
	}
	s.stats.add(&s.stats.notifyDelivered)
	return nil
}

// sleep waits d and reports false if ctx ended first.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
