// Package stack runs the pieces of a PixGate deployment on this machine for
// the harnesses under cmd/: a Postgres cluster and a Redis server of their
// own (from the local binaries, in temporary directories, on free loopback
// ports) and pixgate processes, each of which can be stopped, killed and
// started again.
package stack

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"
)

// FreeAddr is a loopback address with a port nothing listens on now.
func FreeAddr() (string, error) {
	addrs, err := FreeAddrs(1)
	if err != nil {
		return "", err
	}
	return addrs[0], nil
}

// FreeAddrs is n distinct free loopback addresses: the listeners are held
// until all are picked, so no two are the same.
func FreeAddrs(n int) ([]string, error) {
	var lns []net.Listener
	defer func() {
		for _, ln := range lns {
			ln.Close()
		}
	}()
	addrs := make([]string, n)
	for i := range addrs {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		lns, addrs[i] = append(lns, ln), ln.Addr().String()
	}
	return addrs, nil
}

// WaitFor polls cond every 25 ms until it holds, limit passes or ctx ends.
func WaitFor(ctx context.Context, limit time.Duration, cond func() bool) error {
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			return fmt.Errorf("not within %v", limit)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(25 * time.Millisecond):
		}
	}
	return nil
}

// LogFile opens dir/name.log for appending: a process started again writes
// after what it wrote before.
func LogFile(dir, name string) (*os.File, error) {
	return os.OpenFile(filepath.Join(dir, name+".log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
}

// HTTPReady is a Ready check: GET url answers 200.
func HTTPReady(url string) func() bool {
	client := &http.Client{Timeout: 2 * time.Second}
	return func() bool {
		resp, err := client.Get(url)
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	}
}
