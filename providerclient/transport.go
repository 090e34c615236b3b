package providerclient

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"strings"
	"sync/atomic"
)

// MaxAnswer caps how much of a provider's answer is read.
const MaxAnswer = 1 << 20

// Answer is a provider's HTTP answer, read in full.
type Answer struct {
	Status int
	Body   []byte
}

// RoundTrip sends req and reads the answer. A failure before the request
// was fully written is ErrUnavailable; after it, ErrUnknownOutcome. The
// error never holds the URL (whose path may hold an id or a secret).
func RoundTrip(hc *http.Client, req *http.Request) (*Answer, error) {
	var wrote atomic.Bool
	trace := &httptrace.ClientTrace{WroteRequest: func(i httptrace.WroteRequestInfo) {
		if i.Err == nil {
			wrote.Store(true)
		}
	}}
	req = req.WithContext(httptrace.WithClientTrace(req.Context(), trace))
	resp, err := hc.Do(req)
	if err == nil {
		defer resp.Body.Close()
		var body []byte
		if body, err = io.ReadAll(io.LimitReader(resp.Body, MaxAnswer)); err == nil {
			return &Answer{Status: resp.StatusCode, Body: body}, nil
		}
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err // without the URL
	}
	if wrote.Load() {
		return nil, &Error{Kind: ErrUnknownOutcome, Err: err}
	}
	return nil, &Error{Kind: ErrUnavailable, Err: err}
}

// Failure classifies a non-2xx answer: 5xx, 408 and 429 are unavailable,
// 404 not found, other statuses rejected. msg is the provider's own words
// (or "": a snippet of the body is used).
func (a *Answer) Failure(op, msg string) *Error {
	if msg == "" {
		msg = a.Snippet()
	}
	e := &Error{Op: op, StatusCode: a.Status, Message: msg}
	switch {
	case a.Status >= 500, a.Status == http.StatusRequestTimeout, a.Status == http.StatusTooManyRequests:
		e.Kind = ErrUnavailable
	case a.Status == http.StatusNotFound:
		e.Kind = ErrNotFound
	case a.Status >= 400:
		e.Kind = ErrRejected
	default:
		e.Kind, e.Message = ErrUnavailable, fmt.Sprintf("unexpected answer: %s", e.Message)
	}
	return e
}

// Snippet is a short, printable start of the body, or the status text.
func (a *Answer) Snippet() string {
	s := strings.TrimSpace(string(a.Body))
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	if s == "" {
		s = http.StatusText(a.Status)
	}
	return s
}

// OK reports a 2xx answer.
func (a *Answer) OK() bool { return a.Status >= 200 && a.Status <= 299 }
