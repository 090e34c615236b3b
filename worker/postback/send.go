package postback

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"time"

	"github.com/google/uuid"
)

// UserAgent identifies PixGate's deliveries to receivers.
const UserAgent = "PixGate-Postbacks/1"

// Request is one delivery attempt.
type Request struct {
	ID     uuid.UUID // the postback id: webhook-id, the same at every attempt
	URL    string
	Body   []byte // sent exactly as stored
	Secret string // the integrator's whsec_ secret
}

// Result is what one attempt did. Err is set when no response arrived, or
// the response was not a 2xx; its text never contains the URL (its query
// string may hold the integrator's own token) nor the body.
type Result struct {
	StatusCode int // 0 when no response arrived
	Latency    time.Duration
	Err        error
	// Permanent: the URL itself is unusable (see CheckURL); retrying cannot help.
	Permanent bool
}

// Delivered says whether the receiver accepted the postback.
func (r Result) Delivered() bool { return r.Err == nil && r.StatusCode >= 200 && r.StatusCode < 300 }

// Gone says whether the receiver asked never to be sent this postback again.
func (r Result) Gone() bool { return r.StatusCode == http.StatusGone }

// send makes one signed attempt through client (from NewHTTPClient), for
// Send (tracing.go). The body is drained (up to 64 KiB) so the connection
// can be reused, and discarded: receivers answer with a status, nothing
// else is read.
func send(ctx context.Context, client *http.Client, cfg Config, req Request) Result {
	if err := checkShape(req.URL, cfg.AllowHTTP); err != nil {
		return Result{Err: err, Permanent: true}
	}
	now := time.Now()
	sig, err := Sign(req.Secret, req.ID.String(), now, req.Body)
	if err != nil {
		return Result{Err: err}
	}
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, req.URL, bytes.NewReader(req.Body))
	if err != nil {
		return Result{Err: fmt.Errorf("%w: unusable by the HTTP client", ErrInvalidURL), Permanent: true} // err would repeat the URL
	}
	hr.Header.Set("Content-Type", "application/json")
	hr.Header.Set("User-Agent", UserAgent)
	hr.Header.Set(HeaderID, req.ID.String())
	hr.Header.Set(HeaderTimestamp, fmt.Sprint(now.Unix()))
	hr.Header.Set(HeaderSignature, sig)
	resp, err := client.Do(hr)
	if err != nil {
		return Result{Latency: time.Since(now), Err: withoutURL(err)}
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	res := Result{StatusCode: resp.StatusCode, Latency: time.Since(now)}
	switch {
	case res.Delivered():
	case resp.StatusCode >= 300 && resp.StatusCode < 400:
		res.Err = fmt.Errorf("receiver answered %d: redirects are not followed", resp.StatusCode)
	case res.Gone():
		res.Err = errors.New("receiver answered 410 Gone: no more attempts")
	default:
		res.Err = fmt.Errorf("receiver answered %d", resp.StatusCode)
	}
	return res
}

// withoutURL strips the *url.Error wrapper, whose text repeats the full URL.
func withoutURL(err error) error {
	var ue *url.Error
	if !errors.As(err, &ue) {
		return err
	}
	inner := ue.Err
	var ne net.Error
	if errors.As(inner, &ne) && ne.Timeout() {
		return fmt.Errorf("timeout: %w", inner)
	}
	return inner
}
