package api

import (
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/ledger"
)

// Error codes: the stable, machine-readable half of every error answer.
const (
	codeMalformedJSON       = "malformed_json"
	codeBadRequest          = "bad_request"
	codeUnauthenticated     = "unauthenticated"
	codeForbidden           = "forbidden"
	codeNotFound            = "not_found"
	codeMethodNotAllowed    = "method_not_allowed"
	codeIdempotency         = "idempotency_conflict"
	codePayloadTooLarge     = "payload_too_large"
	codeUnsupportedMedia    = "unsupported_media_type"
	codeValidation          = "validation_failed"
	codeInsufficientFunds   = "insufficient_funds"
	codeRateLimited         = "rate_limited"
	codeInternal            = "internal_error"
	codeProviderRejected    = "provider_rejected"
	codeProviderUnavailable = "provider_unavailable"
	codeProviderTimeout     = "provider_timeout"
)

// msgValidation is the Laravel-style summary of a 422 with field errors.
const msgValidation = "The given data was invalid."

// apiError is an answer that is not a success. Handlers return it (or any
// error, which renderError maps); nothing writes an error body but
// renderError.
type apiError struct {
	Status     int
	Code       string
	Message    string
	Fields     map[string][]string
	RetryAfter time.Duration
}

func (e *apiError) Error() string { return fmt.Sprintf("%d %s: %s", e.Status, e.Code, e.Message) }

func newError(status int, code, format string, args ...any) *apiError {
	return &apiError{Status: status, Code: code, Message: fmt.Sprintf(format, args...)}
}

// errorBody is the one error shape of both surfaces: statusCode and message
// for provider-family clients, message and errors for Laravel-style ones.
type errorBody struct {
	StatusCode int                 `json:"statusCode"`
	Code       string              `json:"code"`
	Message    string              `json:"message"`
	Errors     map[string][]string `json:"errors,omitempty"`
	RequestID  string              `json:"request_id"`
}

// renderError is Fiber's ErrorHandler: every error of every request ends
// here, is mapped by toAPIError, logged once when it is PixGate's fault or
// the provider's, and written in the one error shape.
func (s *Server) renderError(c *fiber.Ctx, err error) error {
	ae := s.toAPIError(err)
	reqID := requestIDOf(c)
	if reqID == "" { // fasthttp-level failures (413) skip every middleware
		reqID = newRequestID()
		c.Set(HeaderRequestID, reqID)
		s.log.Info("http request", "method", c.Method(), "route", "unread", "status", ae.Status, "request_id", reqID)
		s.metrics.observe("unread", c.Method(), ae.Status, 0)
	}
	switch {
	case ae.Code == codeInternal:
		s.log.Error("request failed", "request_id", reqID, "method", c.Method(), "route", routeOf(c), "error", err)
	case ae.Status >= 500:
		s.log.Warn("provider call failed", "request_id", reqID, "route", routeOf(c), "error", err)
	}
	if ae.RetryAfter > 0 {
		c.Set(fiber.HeaderRetryAfter, strconv.Itoa(ceilSeconds(ae.RetryAfter)))
	}
	if ae.Status == http.StatusUnauthorized {
		c.Set(fiber.HeaderWWWAuthenticate, `Bearer realm="pixgate"`)
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.Status(ae.Status).JSON(errorBody{StatusCode: ae.Status, Code: ae.Code, Message: ae.Message,
		Errors: ae.Fields, RequestID: reqID})
}

// toAPIError is the one place where typed errors become HTTP answers.
// Anything it does not recognise is a bug: 500 with nothing of the error
// shown.
func (s *Server) toAPIError(err error) *apiError {
	var (
		ae   *apiError
		fe   *fiber.Error
		pe   *providerclient.Error
		insf *ledger.InsufficientFundsError
	)
	switch {
	case errors.As(err, &ae):
		return ae
	case errors.Is(err, storage.ErrNotFound):
		return newError(http.StatusNotFound, codeNotFound, "No such record for this account.")
	case errors.Is(err, storage.ErrIdempotencyConflict):
		return newError(http.StatusConflict, codeIdempotency,
			"external_id was already used with a different request; send the same body to replay it, or use a new external_id.")
	case errors.As(err, &insf):
		return &apiError{Status: http.StatusUnprocessableEntity, Code: codeInsufficientFunds,
			Message: fmt.Sprintf("Insufficient funds: available balance is R$ %s, this request needs R$ %s (amount plus fee).", insf.Balance, insf.Requested),
			Fields:  map[string][]string{"amount": {fmt.Sprintf("with the fee (R$ %s) exceeds the available balance (R$ %s)", insf.Requested, insf.Balance)}}}
	case errors.Is(err, ledger.ErrInsufficientFunds):
		return newError(http.StatusUnprocessableEntity, codeInsufficientFunds, "Insufficient funds for this request (amount plus fee).")
	case errors.Is(err, providerclient.ErrRejected):
		msg := "The settlement provider rejected the request."
		if errors.As(err, &pe) && pe.Message != "" {
			msg = "The settlement provider rejected the request: " + pe.Message
		}
		return newError(http.StatusBadGateway, codeProviderRejected, "%s", msg)
	case errors.Is(err, providerclient.ErrUnavailable):
		return &apiError{Status: http.StatusServiceUnavailable, Code: codeProviderUnavailable,
			Message:    "The settlement provider is unavailable. Retry later, with the same external_id.",
			RetryAfter: s.cfg.ProviderRetryAfter}
	case errors.Is(err, providerclient.ErrUnknownOutcome):
		return newError(http.StatusGatewayTimeout, codeProviderTimeout,
			"The settlement provider did not answer in time. Retry with the same external_id: it never creates a second charge.")
	case errors.Is(err, storage.ErrInvalidCredentials):
		return errUnauthenticated
	case errors.As(err, &fe):
		return fromFiberError(fe)
	}
	return newError(http.StatusInternalServerError, codeInternal, "Internal error. Quote the request_id when contacting support.")
}

// fromFiberError maps the errors Fiber and fasthttp produce themselves:
// unknown routes, wrong methods, oversized bodies, unreadable requests.
func fromFiberError(fe *fiber.Error) *apiError {
	switch fe.Code {
	case http.StatusNotFound:
		return newError(fe.Code, codeNotFound, "No such endpoint: %s.", strings.TrimPrefix(fe.Message, "Cannot "))
	case http.StatusMethodNotAllowed:
		return newError(fe.Code, codeMethodNotAllowed, "This endpoint does not accept this method.")
	case http.StatusRequestEntityTooLarge:
		return newError(fe.Code, codePayloadTooLarge, "Request body too large.")
	case http.StatusUnsupportedMediaType:
		return newError(fe.Code, codeUnsupportedMedia, "%s", fe.Message)
	case http.StatusTooManyRequests:
		return newError(fe.Code, codeRateLimited, "%s", fe.Message)
	}
	if fe.Code >= 500 {
		return newError(http.StatusInternalServerError, codeInternal, "Internal error. Quote the request_id when contacting support.")
	}
	code := strings.ToLower(strings.ReplaceAll(http.StatusText(fe.Code), " ", "_"))
	if code == "" {
		code = codeBadRequest
	}
	return newError(fe.Code, code, "%s", fe.Message)
}

// ceilSeconds rounds up to whole seconds, at least 1, for Retry-After.
func ceilSeconds(d time.Duration) int {
	return max(1, int(math.Ceil(d.Seconds())))
}

// routeOf names the matched route pattern for logs ("/api/v1/charges/:charge"),
// never the raw path.
func routeOf(c *fiber.Ctx) string {
	if r := c.Route(); r != nil && r.Path != "/" {
		return r.Path
	}
	return "unmatched"
}
