package postback

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"strings"

	"golang.org/x/net/idna"
)

// The one rule for where a postback may go. Delivery dials only addresses
// that destinations returned, and the API runs the same function when a
// postbackUrl is given, so an integrator learns at creation what delivery
// would refuse. Both must run with the same Config: the policy is the
// worker's, and an API that checks with another one misleads integrators.

// Resolver looks host names up; *net.Resolver is one.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// ErrUnresolvable: the host name does not exist (NXDOMAIN, or no
// addresses). A DNS server that does not answer is not this error.
var ErrUnresolvable = errors.New("postback host does not resolve")

// privateSuffixes are names that never designate a public host: loopback
// (RFC 6761), multicast DNS (RFC 6762) and the private-use TLD ICANN
// reserved, which cloud metadata services live under
// (metadata.google.internal).
var privateSuffixes = []string{"localhost", "local", "internal"}

// destinations normalises host as an HTTP client does before dialing
// (IDNA, so full-width digits and ideographic dots become ASCII), reads the
// numeric forms of IPv4 that C resolvers accept ("127.1", "2130706433",
// "0x7f000001", "0177.0.0.1", "0"), resolves names, and returns the
// addresses, every one of them public. One non-public address refuses the
// whole name: a name that sometimes points inside is not a destination.
func destinations(ctx context.Context, cfg Config, host string) ([]netip.Addr, error) {
	name, ip, err := normalizeHost(host)
	if err != nil {
		return nil, err
	}
	if ip.IsValid() {
		return []netip.Addr{ip}, checkAddrs(cfg, []netip.Addr{ip})
	}
	if !cfg.AllowPrivate {
		for _, s := range privateSuffixes {
			if name == s || strings.HasSuffix(name, "."+s) {
				return nil, fmt.Errorf("%w: a .%s name", ErrBlockedAddress, s)
			}
		}
	}
	addrs, err := cfg.resolver().LookupNetIP(ctx, "ip", name)
	var dnsErr *net.DNSError
	switch {
	case errors.As(err, &dnsErr) && dnsErr.IsNotFound, err == nil && len(addrs) == 0:
		return nil, ErrUnresolvable
	case err != nil:
		return nil, fmt.Errorf("postback host lookup failed: %w", err)
	}
	for i, a := range addrs {
		addrs[i] = a.Unmap()
	}
	return addrs, checkAddrs(cfg, addrs)
}

func checkAddrs(cfg Config, addrs []netip.Addr) error {
	if cfg.AllowPrivate {
		return nil
	}
	for _, a := range addrs {
		if err := guardian.SafeAddr(a); err != nil {
			// The address is not named: it may be what an internal name
			// resolves to, which is not the integrator's business.
			return ErrBlockedAddress
		}
	}
	return nil
}

// normalizeHost returns the host as the name to resolve, or as an address
// when it is one in any notation.
func normalizeHost(host string) (string, netip.Addr, error) {
	host = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSuffix(host, "]"), "["), ".")
	if ip, err := netip.ParseAddr(host); err == nil {
		return "", ip.Unmap(), nil
	}
	ascii, err := idna.Lookup.ToASCII(host)
	if err != nil || ascii == "" {
		return "", netip.Addr{}, fmt.Errorf("%w: not a valid host name", ErrInvalidURL)
	}
	ascii = strings.TrimSuffix(strings.ToLower(ascii), ".")
	if ip, err := netip.ParseAddr(ascii); err == nil {
		return "", ip.Unmap(), nil
	}
	if ip, ok := parseLegacyIPv4(ascii); ok {
		return "", ip, nil
	}
	return ascii, netip.Addr{}, nil
}

// parseLegacyIPv4 reads the inet_aton(3) notations of an IPv4 address: one
// to four parts, each decimal, octal (leading 0) or hex (0x); the last part
// fills the remaining bytes. getaddrinfo accepts them, so a resolver may
// turn "2130706433" into 127.0.0.1.
func parseLegacyIPv4(s string) (netip.Addr, bool) {
	parts := strings.Split(s, ".")
	if len(parts) > 4 {
		return netip.Addr{}, false
	}
	var v [4]uint64
	for i, p := range parts {
		base := 10
		switch {
		case strings.HasPrefix(p, "0x") || strings.HasPrefix(p, "0X"):
			p, base = p[2:], 16
		case len(p) > 1 && p[0] == '0':
			p, base = p[1:], 8
		}
		n, err := strconv.ParseUint(p, base, 32)
		if err != nil {
			return netip.Addr{}, false
		}
		v[i] = n
	}
	last := len(parts) - 1
	if v[last] >= 1<<(8*(4-last)) {
		return netip.Addr{}, false
	}
	n := v[last]
	for i := range last {
		if v[i] > 255 {
			return netip.Addr{}, false
		}
		n |= v[i] << (8 * (3 - i))
	}
	return netip.AddrFrom4([4]byte{byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)}), true
}

// dialer dials only what destinations allows, trying each address in turn.
// The address it dials is the one it checked, so DNS rebinding between the
// check and the connection is impossible; control checks it once more.
type dialer struct {
	cfg  Config
	dial *net.Dialer
}

func (d dialer) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(address)
	if err != nil {
		return nil, err
	}
	addrs, err := destinations(ctx, d.cfg, host)
	if err != nil {
		return nil, err
	}
	var firstErr error
	for _, a := range addrs {
		conn, err := d.dial.DialContext(ctx, network, net.JoinHostPort(a.String(), port))
		if err == nil {
			return conn, nil
		}
		if firstErr == nil {
			firstErr = err
		}
	}
	return nil, firstErr
}
