package api

import (
	"bytes"
	"math"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"
)

// What happens to a request before Fiber routes it: its framing is checked
// as soon as its head is read, and a method Fiber does not know is answered
// here, in the one error shape, rather than by Fiber's plain-text 400.

// Answers to a request whose head is refused before its body is read.
var (
	// errConflictingLength: a request whose body length is ambiguous.
	// Behind a proxy that reads the other length, such a request smuggles
	// a second one past it (RFC 9112 §6.3).
	errConflictingLength = newError(http.StatusBadRequest, codeBadRequest,
		"The request's length is ambiguous: send one Content-Length, or Transfer-Encoding without Content-Length.")
	// errControlInHeader: a header value holding NUL or a bare CR, which
	// RFC 9110 §5.5 says to reject (or blank), and which proxies and logs
	// read differently.
	errControlInHeader = newError(http.StatusBadRequest, codeBadRequest,
		"The request's headers hold a NUL or a bare carriage return.")
	// errBareLF: a header line ended by LF alone. RFC 9112 §2.2 lets a
	// recipient take it for CRLF; a proxy that does not reads another
	// request, so PixGate takes neither chance.
	errBareLF = newError(http.StatusBadRequest, codeBadRequest,
		"The request's header lines must end with CRLF, not a bare line feed.")
	// errObsFold: a header line folded onto the next (a line starting with
	// a space or tab), or whitespace before the first header: RFC 9112
	// §5.2 and §2.2 let a server refuse both with 400.
	errObsFold = newError(http.StatusBadRequest, codeBadRequest,
		"The request's headers must not be folded over several lines, nor start with whitespace.")
	// errHTTPVersion: a request line naming a version other than HTTP/1.0
	// or HTTP/1.1 (HTTP/2 reaches PixGate through its proxy as HTTP/1.1).
	// RFC 9110 §15.6.6 has 505 for an unsupported major version; PixGate
	// answers 400, as for any request it cannot read, and keeps 5xx for
	// its own faults.
	errHTTPVersion = newError(http.StatusBadRequest, codeBadRequest,
		"The request line must end with HTTP/1.1 (or HTTP/1.0).")
)

// guardTransport installs the checks on the fasthttp server under Fiber.
func (s *Server) guardTransport() {
	srv := s.app.Server()
	srv.HeaderReceived = func(h *fasthttp.RequestHeader) fasthttp.RequestConfig {
		if conf := refuseBadHead(h); conf.MaxRequestBodySize != 0 {
			return conf
		}
		return s.headerReceived(h) // a batch's larger body
	}
	routed := srv.Handler
	srv.Handler = func(fctx *fasthttp.RequestCtx) {
		if slices.Contains(fiber.DefaultMethods, string(fctx.Method())) {
			routed(fctx)
			return
		}
		c := s.app.AcquireCtx(fctx)
		defer s.app.ReleaseCtx(c)
		start := time.Now()
		id := newRequestID()
		c.Locals(localRequestID, id)
		c.Set(HeaderRequestID, id)
		err := fiber.ErrMethodNotAllowed
		if len(s.allowedMethods(c.Path())) == 0 {
			err = fiber.ErrNotFound
		}
		_ = s.renderError(c, err)
		s.logRequest(c, "unmatched", "OTHER", start) // any string can be a method: not a label
	}
}

// refuseBadHead runs once a request's head is read, before its body.
// fasthttp keeps the last of several Content-Length values, lets
// Transfer-Encoding override Content-Length and keeps control characters in
// header values; PixGate refuses all three. A hook cannot answer by itself,
// so it declares a length over the body limit it sets: fasthttp stops at
// once with "body too large", which the error renderer turns back into the
// right 400 (see framingError).
func refuseBadHead(h *fasthttp.RequestHeader) fasthttp.RequestConfig {
	if requestProblem(h) == nil {
		return fasthttp.RequestConfig{}
	}
	h.SetContentLength(math.MaxInt32)
	return fasthttp.RequestConfig{MaxRequestBodySize: 1}
}

// requestProblem is the answer to a request line and head PixGate refuses,
// or nil. The request line's own ending is not seen: fasthttp keeps only
// what follows it.
func requestProblem(h *fasthttp.RequestHeader) *apiError {
	if p := string(h.Protocol()); p != "HTTP/1.1" && p != "HTTP/1.0" {
		return errHTTPVersion
	}
	return headProblem(h.RawHeaders())
}

// headProblem is the answer to a head PixGate refuses, or nil. It runs on
// every request, so it reads the head in place.
func headProblem(raw []byte) *apiError {
	switch {
	case ambiguousLength(raw):
		return errConflictingLength
	case bytes.IndexByte(raw, 0) >= 0 || bareCR(raw):
		return errControlInHeader
	}
	return lineProblem(raw)
}

// lineProblem finds a header line ended by a bare LF, and a folded line
// or whitespace before the first header.
func lineProblem(raw []byte) *apiError {
	if len(raw) > 0 && (raw[0] == ' ' || raw[0] == '\t') {
		return errObsFold
	}
	for i := 0; ; i++ {
		j := bytes.IndexByte(raw[i:], '\n')
		if j < 0 {
			return nil
		}
		i += j
		if i == 0 || raw[i-1] != '\r' {
			return errBareLF
		}
		if i+1 < len(raw) && (raw[i+1] == ' ' || raw[i+1] == '\t') {
			return errObsFold
		}
	}
}

// bareCR reports a carriage return that does not end a line.
func bareCR(raw []byte) bool {
	for i := 0; ; i++ {
		j := bytes.IndexByte(raw[i:], '\r')
		if j < 0 {
			return false
		}
		i += j
		if i+1 == len(raw) || raw[i+1] != '\n' {
			return true
		}
	}
}

// ambiguousLength reports two Content-Length headers with different values,
// or Content-Length together with Transfer-Encoding.
func ambiguousLength(raw []byte) bool {
	var (
		length  []byte
		lengths int
		chunked bool
	)
	for rest := raw; len(rest) > 0; {
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			rest = nil
		}
		name, value, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			continue
		}
		value = bytes.TrimSpace(value)
		switch name = bytes.TrimSpace(name); {
		case asciiEqualFold(name, "content-length"):
			if lengths > 0 && !bytes.Equal(value, length) {
				return true
			}
			length, lengths = value, lengths+1
		case asciiEqualFold(name, "transfer-encoding"):
			chunked = true
		}
	}
	return chunked && lengths > 0
}

// asciiEqualFold compares a header name with a lower-case one, folding
// ASCII letters only, as HTTP does.
func asciiEqualFold(b []byte, lower string) bool {
	if len(b) != len(lower) {
		return false
	}
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

// framingError is the answer to a request fasthttp could not read, never
// its own message: that quotes the request head, credentials included.
func framingError(c *fiber.Ctx, fe *fiber.Error) *apiError {
	switch fe.Code {
	case http.StatusRequestEntityTooLarge:
		if ae := requestProblem(&c.Request().Header); ae != nil {
			return ae
		}
		return newError(fe.Code, codePayloadTooLarge, "Request body too large.")
	case http.StatusRequestTimeout:
		return newError(fe.Code, "request_timeout", "The request was not received in time.")
	case http.StatusRequestHeaderFieldsTooLarge:
		return newError(fe.Code, "request_header_fields_too_large", "The request's headers are too large.")
	}
	return newError(http.StatusBadRequest, codeBadRequest,
		"The request could not be read: check its request line and headers (Content-Length must be a non-negative integer).")
}

// allowedMethods lists the methods some route accepts at path (HEAD with
// GET), for the Allow header of a 405. Routing is case-insensitive and
// ignores a trailing slash, as Fiber's is by default.
func (s *Server) allowedMethods(path string) []string {
	var methods []string
	for _, r := range s.app.GetRoutes(true) {
		if matchRoute(r.Path, path) && !slices.Contains(methods, r.Method) {
			methods = append(methods, r.Method)
		}
	}
	slices.Sort(methods)
	return methods
}

// matchRoute matches a request path against a route pattern whose
// ":param" segments stand for any one non-empty segment and whose final
// "*" stands for the rest of the path.
func matchRoute(pattern, path string) bool {
	clean := func(p string) []string {
		p = strings.ToLower(strings.TrimSuffix(p, "/"))
		return strings.Split(p, "/")
	}
	want, got := clean(pattern), clean(path)
	if n := len(want); n > 0 && want[n-1] == "*" {
		if len(got) < n-1 {
			return false
		}
		want, got = want[:n-1], got[:n-1]
	}
	if len(want) != len(got) {
		return false
	}
	for i, seg := range want {
		if strings.HasPrefix(seg, ":") {
			if got[i] == "" {
				return false
			}
			continue
		}
		if seg != got[i] {
			return false
		}
	}
	return true
}
