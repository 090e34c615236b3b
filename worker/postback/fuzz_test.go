package postback

import (
	"context"
	"net/netip"
	"testing"
)

// everything answers one address for every name.
type everything netip.Addr

func (e everything) LookupNetIP(context.Context, string, string) ([]netip.Addr, error) {
	return []netip.Addr{netip.Addr(e)}, nil
}

// FuzzDestinationHost: however a host is written, when every name resolves
// to loopback no name is a destination; and a host that reads as an address
// is judged as that address, never looked up as a name.
func FuzzDestinationHost(f *testing.F) {
	for _, h := range []string{"loja.example", "0", "127.1", "2130706433", "0x7f000001", "0177.0.0.1", "１２７.０.０.１", "127。0。0。1",
		"[::ffff:127.0.0.1]", "metadata.google.internal", "xn--nxasmq6b", "8.8.8.8", "0x08.0x08.0x08.0x08", "LOCALHOST."} {
		f.Add(h)
	}
	loopback := Config{Resolver: everything(netip.MustParseAddr("127.0.0.1"))}
	public := Config{Resolver: everything(netip.MustParseAddr("8.8.8.8"))}
	f.Fuzz(func(t *testing.T, host string) {
		_, ip, err := normalizeHost(host)
		if addrs, derr := destinations(context.Background(), loopback, host); derr == nil && (err != nil || !ip.IsValid()) {
			t.Fatalf("%q allowed as %v although it is a name and every name is loopback", host, addrs)
		}
		if err != nil || !ip.IsValid() {
			return
		}
		addrs, err := destinations(context.Background(), public, host)
		if guardian.SafeAddr(ip) != nil {
			if err == nil {
				t.Fatalf("%q reads as %v, not public, yet allowed", host, ip)
			}
			return
		}
		if err != nil || len(addrs) != 1 || addrs[0] != ip {
			t.Fatalf("%q reads as %v but gives %v, %v", host, ip, addrs, err)
		}
	})
}
