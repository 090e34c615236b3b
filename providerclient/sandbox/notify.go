package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	mrand "math/rand/v2"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/cenkalti/backoff/v4"

	"github.com/pixgate/pixgate/providerclient/contract"
)

// notifyAttempts is how many times one notification is tried before the
// sandbox gives up on a failing receiver.
const notifyAttempts = 4

// notification is one event to deliver, planned with the faults of the
// moment it happened.
type notification struct {
	url        string
	final      []byte
	stale      []byte // out-of-order fault: an earlier status, sent last
	copies     int
	concurrent bool
	id, status string
}

// notifyLocked plans the notification of t to url and starts its sender.
// Callers hold s.mu, which makes the closed check and wg.Add atomic with
// Close.
func (s *Sandbox) notifyLocked(url string, t Transaction) {
	f := s.faults
	if url == "" || s.closed || f.DropNotifications {
		return
	}
	n := notification{url: url, copies: max(1, f.DuplicateNotifications), concurrent: f.OutOfOrderNotifications,
		id: t.TransactionID, status: t.Status}
	n.final, _ = json.Marshal(contract.Envelope[Transaction]{RequestBody: t})
	if f.OutOfOrderNotifications {
		n.stale, _ = json.Marshal(contract.Envelope[Transaction]{RequestBody: staleView(t)})
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		s.deliverAll(n)
	}()
}

func (s *Sandbox) deliverAll(n notification) {
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
	s.deliver(n, n.stale)
}

// deliver POSTs body to the notification URL, retrying with a short
// exponential backoff until a 2xx answer or notifyAttempts tries.
func (s *Sandbox) deliver(n notification, body []byte) {
	b := backoff.NewExponentialBackOff(
		backoff.WithInitialInterval(100*time.Millisecond),
		backoff.WithMultiplier(2),
		backoff.WithRandomizationFactor(0.2),
		backoff.WithMaxElapsedTime(0),
	)
	var err error
	for attempt := 1; attempt <= notifyAttempts; attempt++ {
		if err = s.post(n.url, body); err == nil {
			return
		}
		if attempt == notifyAttempts || !sleep(s.ctx, b.NextBackOff()) {
			break
		}
	}
	host := ""
	if u, perr := url.Parse(n.url); perr == nil {
		host = u.Host // the path may hold the receiver's secret token
	}
	s.log.Warn("sandbox notification not delivered", "transaction_id", n.id, "status", n.status,
		"host", host, "error", err)
}

func (s *Sandbox) post(target string, body []byte) error {
	s.stats.add(&s.stats.notifyAttempts)
	req, err := http.NewRequestWithContext(s.ctx, http.MethodPost, target, bytes.NewReader(body))
	if err != nil {
		return errors.New("bad postback URL")
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "pixgate-sandbox/1")
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
