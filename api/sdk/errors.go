package pixgate

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"
)

// Error is a request PixGate refused: its one error shape on both surfaces.
// Branch on Code (validation_failed, insufficient_funds, not_found,
// idempotency_conflict, ...), not on Message.
type Error struct {
	// StatusCode is the HTTP status.
	StatusCode int `json:"statusCode"`
	// Code is PixGate's stable, machine-readable reason.
	Code string `json:"code"`
	// Message is for people: on a validation failure it names the first
	// field at fault.
	Message string `json:"message"`
	// Errors lists, by field path ("amount", "payer.document"), what is
	// wrong with each, on validation failures.
	Errors map[string][]string `json:"errors,omitempty"`
	// RequestID is PixGate's id of the request: quote it to support.
	RequestID string `json:"request_id"`
	// OAuthError and OAuthDescription are RFC 6749's error and
	// error_description, on the token endpoint's refusals.
	OAuthError       string `json:"error,omitempty"`
	OAuthDescription string `json:"error_description,omitempty"`
	// RetryAfter is what the Retry-After header asked for, if anything.
	RetryAfter time.Duration `json:"-"`
}

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "pixgate: %d %s: %s", e.StatusCode, e.Code, e.Message)
	fields := make([]string, 0, len(e.Errors))
	for f := range e.Errors {
		fields = append(fields, f)
	}
	slices.Sort(fields)
	for _, f := range fields {
		fmt.Fprintf(&b, "; %s %s", f, strings.Join(e.Errors[f], ", "))
	}
	if e.RequestID != "" {
		fmt.Fprintf(&b, " (request %s)", e.RequestID)
	}
	return b.String()
}

// Field is what is wrong with one field ("payer.document"), or nil.
func (e *Error) Field(path string) []string { return e.Errors[path] }

// errorFrom reads an error answer; a body that is not PixGate's shape (a
// proxy's page) still gives an *Error with the status.
func errorFrom(resp *http.Response, body []byte) *Error {
	e := &Error{}
	if json.Unmarshal(body, e) != nil || e.Code == "" {
		e = &Error{Code: "http_" + strings.ReplaceAll(strings.ToLower(http.StatusText(resp.StatusCode)), " ", "_"),
			Message: strings.TrimSpace(string(body[:min(len(body), 200)]))}
	}
	e.StatusCode = resp.StatusCode
	if e.RequestID == "" {
		e.RequestID = resp.Header.Get("X-Request-Id")
	}
	e.RetryAfter, _ = retryAfter(resp.Header, time.Now())
	return e
}
