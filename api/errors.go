package api

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/pixgate/pixgate/api/payments"
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
	codeNotSupported        = "not_supported"
	codeKeyNotFound         = "key_not_found"
	codeOverloaded          = "overloaded"
	codeInfractionClosed    = "infraction_closed"
	codeDefenseExists       = "defense_exists"
	codeSelfApproval        = "self_approval"
	codeNotAwaitingApproval = "not_awaiting_approval"
)

// apiError is an answer that is not a success. Handlers return it (or any
// error, which renderError maps); nothing writes an error body but
// renderError.
type apiError struct {
	Status     int
	Code       string
	Message    string
	Fields     map[string][]string
	RetryAfter time.Duration
	// OAuth is the RFC 6749 error code of a token-endpoint answer
	// ("invalid_client"); the body then also carries it as "error", and
	// Message as "error_description".
	OAuth string
	// Challenge replaces the WWW-Authenticate header of a 401, which is a
	// Bearer challenge by default.
	Challenge string
}

func (e *apiError) Error() string { return fmt.Sprintf("%d %s: %s", e.Status, e.Code, e.Message) }

func newError(status int, code, format string, args ...any) *apiError {
	return &apiError{Status: status, Code: code, Message: fmt.Sprintf(format, args...)}
}

// errorBody is the one error shape of both surfaces: statusCode and message
// for provider-family clients, message and errors for Laravel-style ones,
// error and error_description for OAuth 2.0 clients of the token endpoint.
type errorBody struct {
	Error            string `json:"error,omitempty"`
	ErrorDescription string `json:"error_description,omitempty"`

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
	reqID := requestIDOf(c)
	unread := reqID == "" // fasthttp-level failures skip every middleware
	var (
		ae *apiError
		fe *fiber.Error
	)
	if unread && errors.As(err, &fe) {
		ae = framingError(c, fe)
	} else {
		ae = s.toAPIError(err)
	}
	if ae.Status == http.StatusRequestEntityTooLarge { // say the limit, so the client can split or shrink
		ae = newError(ae.Status, codePayloadTooLarge, "Request body too large: the limit is %d bytes.", s.bodyLimit(c))
	}
	if unread {
		reqID = newRequestID()
		c.Set(HeaderRequestID, reqID)
		s.log.Info("http request", "method", "OTHER", "route", "unread", "status", ae.Status, "request_id", reqID)
		s.metrics.observe("unread", "OTHER", ae.Status, 0) // the request line may be garbage
	}
	switch {
	case ae.Code == codeInternal:
		s.log.Error("request failed", "request_id", reqID, "method", c.Method(), "route", routeOf(c), "error", err)
	case ae.Code == codeOverloaded: // the backlog bound: expected under load, counted by the metrics
	case ae.Code == codeUnavailable:
		s.log.Warn("dependency unavailable", "request_id", reqID, "route", routeOf(c), "error", err)
	case ae.Status >= 500:
		s.log.Warn("provider call failed", "request_id", reqID, "route", routeOf(c), "error", err)
	}
	if ae.RetryAfter > 0 {
		c.Set(fiber.HeaderRetryAfter, strconv.Itoa(ceilSeconds(ae.RetryAfter)))
	}
	switch ae.Status {
	case http.StatusUnauthorized:
		c.Set(fiber.HeaderWWWAuthenticate, cmp.Or(ae.Challenge, `Bearer realm="pixgate"`))
	case http.StatusMethodNotAllowed:
		c.Set(fiber.HeaderAllow, strings.Join(s.allowedMethods(c.Path()), ", "))
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	body := errorBody{StatusCode: ae.Status, Code: ae.Code, Message: ae.Message, Errors: ae.Fields, RequestID: reqID}
	if ae.OAuth != "" {
		body.Error, body.ErrorDescription = ae.OAuth, ae.Message
	}
	return c.Status(ae.Status).JSON(body)
}

// errDatabaseUnavailable: Postgres cannot be reached for the moment, or
// every connection to it stayed busy past the acquire deadline.
var errDatabaseUnavailable = &apiError{Status: http.StatusServiceUnavailable, Code: codeUnavailable,
	Message: "PixGate's database is unreachable or busy at the moment; retry shortly (with the same external_id for a create).", RetryAfter: time.Second}

// errDatabaseBusy: the request waited for a lock another request or task
// held, or ran, longer than the database session's timeouts allow
// (storage.SessionTimeouts); it gave up, nothing was done, and its
// connection went back to the pool.
var errDatabaseBusy = &apiError{Status: http.StatusServiceUnavailable, Code: codeUnavailable,
	Message: "Another request or task was changing the same records for too long; nothing was done. Retry shortly (with the same external_id for a create).", RetryAfter: time.Second}

// toAPIError is the one place where typed errors become HTTP answers.
// Anything it does not recognise is a bug: 500 with nothing of the error
// shown.
func (s *Server) toAPIError(err error) *apiError {
	var (
		ae   *apiError
		re   *payments.RuleError
		fe   *fiber.Error
		pe   *providerclient.Error
		insf *ledger.InsufficientFundsError
		held *storage.HeldRefundShortError
		sub  *storage.SplitRecipientShortError
	)
	switch {
	case errors.As(err, &ae):
		return ae
	case errors.As(err, &re):
		code := re.Code()
		if code == "" {
			code = codeValidation
		}
		return &apiError{Status: http.StatusUnprocessableEntity, Code: code, Message: re.Field + " " + re.Detail,
			Fields: map[string][]string{re.Field: {re.Detail}}}
	case errors.Is(err, storage.ErrNotFound):
		return newError(http.StatusNotFound, codeNotFound, "No such record for this account.")
	case errors.Is(err, storage.ErrSelfApproval):
		return newError(http.StatusForbidden, codeSelfApproval,
			"This API key created it, so it may not approve or reject it: a second key with the withdrawals:approve scope must decide.")
	case errors.Is(err, storage.ErrNotAwaitingApproval):
		return newError(http.StatusConflict, codeNotAwaitingApproval,
			"It is not awaiting approval: it was approved, rejected or expired already, or never needed approval (a batch's withdrawals are decided with their batch).")
	case errors.Is(err, storage.ErrIdempotencyConflict):
		return newError(http.StatusConflict, codeIdempotency,
			"external_id was already used with a different request; send the same body to replay it, or use a new external_id.")
	case errors.As(err, &held):
		return &apiError{Status: http.StatusUnprocessableEntity, Code: codeInsufficientFunds,
			Message: fmt.Sprintf("Insufficient funds: this refund needs R$ %s (amount plus fee); R$ %s comes from the charge's pending balance, and the available balance (R$ %s) does not cover the other R$ %s.",
				held.Total, held.FromHeld, held.Available, held.Total-held.FromHeld),
			Fields: map[string][]string{"amount": {fmt.Sprintf("with the fee (R$ %s) exceeds the charge's pending R$ %s plus the available balance (R$ %s)",
				held.Total, held.FromHeld, held.Available)}}}
	case errors.As(err, &sub):
		return &apiError{Status: http.StatusUnprocessableEntity, Code: codeInsufficientFunds,
			Message: fmt.Sprintf("Insufficient funds: this refund takes back R$ %s of the charge's split from sub-account %d, whose available balance is R$ %s.",
				sub.Part, sub.SubAccount, sub.Available),
			Fields: map[string][]string{"amount": {fmt.Sprintf("takes back R$ %s from sub-account %d, more than its available balance (R$ %s)",
				sub.Part, sub.SubAccount, sub.Available)}}}
	case errors.As(err, &insf):
		return &apiError{Status: http.StatusUnprocessableEntity, Code: codeInsufficientFunds,
			Message: fmt.Sprintf("Insufficient funds: available balance is R$ %s, this request needs R$ %s (amount plus fee).", insf.Balance, insf.Requested),
			Fields:  map[string][]string{"amount": {fmt.Sprintf("with the fee (R$ %s) exceeds the available balance (R$ %s)", insf.Requested, insf.Balance)}}}
	case errors.Is(err, ledger.ErrInsufficientFunds):
		return newError(http.StatusUnprocessableEntity, codeInsufficientFunds, "Insufficient funds for this request (amount plus fee).")
	case errors.Is(err, providerclient.ErrUnsupported):
		if errors.As(err, &pe) && pe.Message != "" { // PixGate's connectors' own words: what it does not take
			return newError(http.StatusNotImplemented, codeNotSupported, "The settlement provider does not offer this: %s.", pe.Message)
		}
		return newError(http.StatusNotImplemented, codeNotSupported, "The settlement provider does not offer this.")
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
	case storage.TimedOut(err):
		return errDatabaseBusy
	case storage.Unavailable(err):
		// Not a fault: Postgres is restarting or failing over, or no
		// connection came free in time. Nothing was done that a retry
		// would do twice (a create is one transaction, replayed by its
		// external_id).
		return errDatabaseUnavailable
	}
	return newError(http.StatusInternalServerError, codeInternal, "Internal error. Quote the request_id when contacting support.")
}

// fromFiberError maps the errors Fiber's router produces itself: unknown
// routes and wrong methods. Their messages are fixed: Fiber's own quote the
// request path, which may hold a secret (the webhook token).
func fromFiberError(fe *fiber.Error) *apiError {
	switch fe.Code {
	case http.StatusNotFound:
		return newError(fe.Code, codeNotFound, "No such endpoint: check the method and the path.")
	case http.StatusMethodNotAllowed:
		return newError(fe.Code, codeMethodNotAllowed, "This endpoint does not accept this method; the Allow header lists those it does.")
	case http.StatusRequestEntityTooLarge:
		return newError(fe.Code, codePayloadTooLarge, "Request body too large.")
	}
	if fe.Code >= 500 {
		return newError(http.StatusInternalServerError, codeInternal, "Internal error. Quote the request_id when contacting support.")
	}
	return newError(http.StatusBadRequest, codeBadRequest, "The request could not be read.")
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
