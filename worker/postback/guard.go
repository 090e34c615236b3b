package postback

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
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

// CheckURL validates a postback URL when it is given to PixGate: absolute,
// https (http only when allowHTTP), a host, no credentials, at most
// MaxURLLength characters, and unless allowPrivate, no literal non-public IP
// and no localhost name. Names are not resolved here (DNS answers change):
// the dialer checks the resolved address at every attempt.
func CheckURL(raw string, allowHTTP, allowPrivate bool) error {
	if err := checkShape(raw, allowHTTP); err != nil {
		return err
	}
	if allowPrivate {
		return nil
	}
	u, _ := url.Parse(raw) // checkShape parsed it
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return fmt.Errorf("%w: %s", ErrBlockedAddress, host)
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		if err := guardian.SafeAddr(ip); err != nil {
			return fmt.Errorf("%w: %s", ErrBlockedAddress, ip)
		}
	}
	return nil
}

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

// control runs after DNS resolution, on the address about to be dialed.
func control(network, address string, _ syscall.RawConn) error {
	if err := guardian.Safe(network, address, nil); err != nil {
		return fmt.Errorf("%w: %v", ErrBlockedAddress, err)
	}
	return nil
}

// NewHTTPClient is the client deliveries go through. It follows no
// redirects (a 3xx is a failure: following one would let a receiver point
// PixGate anywhere, past the URL check), ignores proxy environment variables
// (a proxy would dial on PixGate's behalf, unchecked), bounds each attempt by
// cfg.Timeout and, unless cfg.AllowPrivate, refuses non-public addresses in
// the dialer itself, after DNS resolution. Connections are kept alive.
func NewHTTPClient(cfg Config) *http.Client {
	cfg = cfg.WithDefaults()
	dialer := &net.Dialer{Timeout: cfg.Timeout, KeepAlive: 30 * time.Second}
	if !cfg.AllowPrivate {
		dialer.Control = control
	}
	transport := &http.Transport{
		Proxy:                  nil,
		DialContext:            dialer.DialContext,
		ForceAttemptHTTP2:      true,
		TLSHandshakeTimeout:    cfg.Timeout,
		ResponseHeaderTimeout:  cfg.Timeout,
		MaxIdleConns:           100,
		MaxIdleConnsPerHost:    4,
		IdleConnTimeout:        90 * time.Second,
		MaxResponseHeaderBytes: 64 << 10,
	}
	return &http.Client{
		Transport:     transport,
		Timeout:       cfg.Timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}
