package providerclient

import (
	"net/http"
	"sync"
)

// IdleConnsPerHost is how many idle connections to one provider a
// transport made by NewTransport keeps: as many as calls may be in flight
// to it at once (the worker's widest lane), so that a burst of sends or
// consults reuses its connections instead of opening (and, for mutual TLS,
// handshaking) new ones for all but two, as net/http's default would.
const IdleConnsPerHost = 64

// NewTransport returns a copy of net/http's default transport that keeps
// IdleConnsPerHost idle connections per provider.
func NewTransport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = IdleConnsPerHost
	t.MaxIdleConns = 4 * IdleConnsPerHost
	return t
}

// sharedTransport is the transport of connectors given no HTTP client:
// one pool of connections per provider host for the process.
var sharedTransport = sync.OnceValue(NewTransport)

// IsDefaultTransport reports whether rt is what Config.WithDefaults gives a
// connector with no transport of its caller's (nil, or the process's
// shared transport): a connector that needs a TLS configuration of its own
// (a client certificate) makes its own transport then.
func IsDefaultTransport(rt http.RoundTripper) bool {
	return rt == nil || rt == http.RoundTripper(sharedTransport())
}
