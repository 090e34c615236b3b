package api

import (
	"errors"
	"fmt"
	"net/netip"
	"strings"

	"github.com/gofiber/fiber/v2"
)

// The client address decides the per-key IP allowlists and what the
// per-address limits count against. It is the TCP peer, unless the peer
// is one of Config.TrustedProxies and Config.ProxyHeader is set: then it
// is read from that header, which such a proxy writes.

// proxies is who may say where a request came from.
type proxies struct {
	header  string         // empty: the TCP peer is the client
	trusted []netip.Prefix // whose header is believed
}

// ParseTrustedProxies reads Config.TrustedProxies: IP addresses (one
// host) or CIDR prefixes, IPv4-mapped IPv6 ones taken as the IPv4 they
// hold. It names the first entry it cannot read.
func ParseTrustedProxies(entries []string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, raw := range entries {
		s := strings.TrimSpace(raw)
		if s == "" {
			continue
		}
		if a, err := netip.ParseAddr(s); err == nil && a.Zone() == "" {
			a = a.Unmap()
			out = append(out, netip.PrefixFrom(a, a.BitLen()))
			continue
		}
		p, err := netip.ParsePrefix(s)
		if err != nil {
			return nil, fmt.Errorf("%q is neither an IP address nor a CIDR prefix", raw)
		}
		if a := p.Addr(); a.Is4In6() && p.Bits() >= 96 {
			p = netip.PrefixFrom(a.Unmap(), p.Bits()-96)
		}
		out = append(out, p.Masked())
	}
	return out, nil
}

// newProxies builds the rule from the configuration. A header without a
// trusted proxy that can be read is ignored (the TCP peer is the client):
// believed from every client, it would let any of them pass an allowlist
// and escape every per-address limit by naming an address. The commands
// refuse to start with such a configuration; New logs it.
func newProxies(header string, trusted []string) (proxies, error) {
	prefixes, err := ParseTrustedProxies(trusted)
	switch {
	case header == "":
		return proxies{}, nil
	case err != nil:
		return proxies{}, fmt.Errorf("trusted proxies: %w; the proxy header is ignored", err)
	case len(prefixes) == 0:
		return proxies{}, errors.New("a proxy header without trusted proxies is ignored")
	}
	return proxies{header: header, trusted: prefixes}, nil
}

func (p proxies) trusts(a netip.Addr) bool {
	for _, pr := range p.trusted {
		if pr.Contains(a) {
			return true
		}
	}
	return false
}

// client is the request's client address and the name of what the
// per-address limits count it against. The zero address means a trusted
// proxy sent nothing usable: it passes no allowlist, and is counted in a
// bucket of its own (per proxy), never the proxy's address nor a client's.
func (p proxies) client(c *fiber.Ctx) (netip.Addr, string) {
	peer, _ := netip.AddrFromSlice(c.Context().RemoteIP())
	peer = peer.Unmap()
	if p.header == "" || !p.trusts(peer) {
		return peer, bucketOf(peer)
	}
	if a, ok := p.fromHeader(c.Get(p.header)); ok {
		return a, bucketOf(a)
	}
	return netip.Addr{}, "unusable-via-" + peer.String()
}

// fromHeader reads the client from the header's list of addresses (one
// for a header the proxy overwrites, such as X-Real-IP; "client, proxy1,
// proxy2" for one each proxy appends to, such as X-Forwarded-For): from
// the right, the first address that is not a trusted proxy's. What a
// client wrote at the left never counts while a trusted proxy wrote after
// it. ok is false when an entry it reaches cannot be read.
func (p proxies) fromHeader(v string) (netip.Addr, bool) {
	if strings.TrimSpace(v) == "" {
		return netip.Addr{}, false
	}
	var last netip.Addr
	for v != "" {
		i := strings.LastIndexByte(v, ',')
		entry := v[i+1:]
		v = v[:max(i, 0)]
		a, ok := parseClientAddr(entry)
		if !ok {
			return netip.Addr{}, false
		}
		if !p.trusts(a) {
			return a, true
		}
		last = a
	}
	return last, true // every one a trusted proxy: the leftmost
}

// parseClientAddr reads one address as proxies write them: bare, with a
// port, in brackets, IPv4-mapped (taken as the IPv4 it holds) or with an
// IPv6 zone (dropped: it names an interface of the proxy's, not a host).
// An unspecified address (0.0.0.0, ::) is not usable.
func parseClientAddr(s string) (netip.Addr, bool) {
	s = strings.TrimSpace(s)
	a, err := netip.ParseAddr(s)
	if err != nil {
		if ap, perr := netip.ParseAddrPort(s); perr == nil {
			a, err = ap.Addr(), nil
		} else if len(s) > 2 && s[0] == '[' && s[len(s)-1] == ']' {
			a, err = netip.ParseAddr(s[1 : len(s)-1])
		}
	}
	if err != nil {
		return netip.Addr{}, false
	}
	a = a.WithZone("").Unmap()
	return a, !a.IsUnspecified()
}

// bucketOf names an address as the per-address limits count it: an IPv6
// client by its /64, which one host can rotate through at will.
func bucketOf(a netip.Addr) string {
	switch {
	case !a.IsValid():
		return "unknown"
	case a.Is6():
		p, _ := a.Prefix(64)
		return p.String()
	}
	return a.String()
}

// clientAddr is the request's client address (see proxies.client); the
// zero Addr when a trusted proxy sent none that could be read.
func (s *Server) clientAddr(c *fiber.Ctx) netip.Addr {
	a, _ := s.proxies.client(c)
	return a
}

// addrBucket is what the per-address limits count the request against.
func (s *Server) addrBucket(c *fiber.Ctx) string {
	_, b := s.proxies.client(c)
	return b
}
