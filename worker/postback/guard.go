package postback

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"syscall"
	"time"

	"code.dny.dev/ssrf"
)

// Errors of the SSRF policy.
var (
	// ErrInvalidURL: the postback URL is not one PixGate posts to.
	ErrInvalidURL = errors.New("invalid postback URL")
	// ErrBlockedAddress: the destination is not a public address. Returned
	// by the dialer after DNS resolution, so a public name pointing at a
	// private address (or rebinding to one) is refused too.
	ErrBlockedAddress = errors.New("postback destination is not a public address")
)

// MaxURLLength bounds a postback URL.
const MaxURLLength = 2048

// guardian refuses every IANA special-purpose range: loopback, RFC 1918,
// link-local (cloud metadata at 169.254.169.254 included), CGNAT, multicast,
// documentation and reserved ranges, and every IPv6 address outside global
// unicast, which covers IPv4-mapped addresses. Integrators pick their port.
var guardian = ssrf.New(ssrf.WithAnyPort())

// CheckURL tells, when a postback URL is given to PixGate, whether delivery
// under cfg would refuse it: the shape (absolute, https unless
// cfg.AllowHTTP, a host, no credentials, at most MaxURLLength characters)
// and, unless cfg.AllowPrivate, the destination, decided by the very rule
// the dialer applies (destinations): the host normalised as the HTTP client
// will, resolved, every address public. A DNS server that does not answer
// within a few seconds decides nothing: the URL is accepted, and the dialer
// checks the resolved address at every attempt anyway.
func CheckURL(ctx context.Context, raw string, cfg Config) error {
	if err := checkShape(raw, cfg.AllowHTTP); err != nil {
		return err
	}
	if cfg.AllowPrivate {
		return nil
	}
	u, _ := url.Parse(raw) // checkShape parsed it
	ctx, cancel := context.WithTimeout(ctx, checkLookupTimeout)
	defer cancel()
	_, err := destinations(ctx, cfg, u.Hostname())
	if err != nil && !errors.Is(err, ErrBlockedAddress) && !errors.Is(err, ErrUnresolvable) && !errors.Is(err, ErrInvalidURL) {
		return nil
	}
	return err
}

// checkLookupTimeout bounds the DNS lookup of CheckURL, which runs inside an
// integrator's request.
const checkLookupTimeout = 3 * time.Second

// checkShape is the part of CheckURL that holds at delivery too: a URL
// failing it can never be delivered, whatever DNS says.
func checkShape(raw string, allowHTTP bool) error {
	if len(raw) > MaxURLLength {
		return fmt.Errorf("%w: longer than %d characters", ErrInvalidURL, MaxURLLength)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("%w: not a URL", ErrInvalidURL)
	}
	switch {
	case !u.IsAbs() || u.Opaque != "":
		return fmt.Errorf("%w: must be an absolute URL", ErrInvalidURL)
	case u.Scheme == "http" && !allowHTTP:
		return fmt.Errorf("%w: must use https", ErrInvalidURL)
	case u.Scheme != "https" && u.Scheme != "http":
		return fmt.Errorf("%w: must use https", ErrInvalidURL)
	case u.Hostname() == "":
		return fmt.Errorf("%w: has no host", ErrInvalidURL)
	case u.User != nil:
		return fmt.Errorf("%w: must not carry credentials", ErrInvalidURL)
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return fmt.Errorf("%w: bad port", ErrInvalidURL)
		}
	}
	return nil
}

// control runs on the address about to be dialed, which destinations
// already checked: a second fence.
func control(network, address string, _ syscall.RawConn) error {
	if err := guardian.Safe(network, address, nil); err != nil {
		return fmt.Errorf("%w: %v", ErrBlockedAddress, err)
	}
	return nil
}

// IdleConnsPerHost is how many idle connections to one receiver the
// client keeps: the postbacks lane's default width, so that one
// integrator's burst of postbacks (mostly to one host) reuses its
// connections.
const IdleConnsPerHost = 64

// NewHTTPClient is the client deliveries go through. It follows no
// redirects (a 3xx is a failure: following one would let a receiver point
// PixGate anywhere, past the URL check), ignores proxy environment variables
// (a proxy would dial on PixGate's behalf, unchecked), bounds each attempt by
// cfg.Timeout and, unless cfg.AllowPrivate, dials only the addresses
// destinations allows, resolved by itself. Connections are kept alive.
func NewHTTPClient(cfg Config) *http.Client {
	cfg = cfg.WithDefaults()
	plain := &net.Dialer{Timeout: cfg.Timeout, KeepAlive: 30 * time.Second}
	dial := plain.DialContext
	if !cfg.AllowPrivate {
		plain.Control = control
		dial = dialer{cfg: cfg, dial: plain}.DialContext
	}
	transport := &http.Transport{
		Proxy:                  nil,
		DialContext:            dial,
		ForceAttemptHTTP2:      true,
		TLSHandshakeTimeout:    cfg.Timeout,
		ResponseHeaderTimeout:  cfg.Timeout,
		MaxIdleConns:           2 * IdleConnsPerHost,
		MaxIdleConnsPerHost:    IdleConnsPerHost,
		IdleConnTimeout:        90 * time.Second,
		MaxResponseHeaderBytes: 64 << 10,
	}
	return &http.Client{
		Transport:     transport,
		Timeout:       cfg.Timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}
