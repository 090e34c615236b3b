package providerclient

import (
	"context"
	"errors"
	"net"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// flaky is a connector whose creates and reads fail with err, counting
// the calls.
type flaky struct {
	Connector
	err   error
	calls atomic.Int64
	// hang makes reads wait for their context instead.
	hang bool
}

func (f *flaky) CreateCharge(context.Context, ChargeRequest) (*Charge, error) {
	f.calls.Add(1)
	return nil, f.err
}

func (f *flaky) Read(ctx context.Context, _ Ref) (*Transaction, error) {
	f.calls.Add(1)
	if f.hang {
		<-ctx.Done()
		return nil, &Error{Op: OpRead, Kind: ErrUnknownOutcome, Err: ctx.Err()}
	}
	return nil, f.err
}

// A refused connection is answered at once: the provider is down and a
// retry would only make the caller wait.
func TestRefusedConnectionIsNotRetried(t *testing.T) {
	f := &flaky{err: &Error{Op: OpCharge, Kind: ErrUnavailable,
		Err: &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}}}
	c := WithRetry(f, Config{RetryMaxElapsed: time.Minute})
	if _, err := c.CreateCharge(context.Background(), ChargeRequest{ID: "c-1"}); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("err = %v", err)
	}
	if n := f.calls.Load(); n != 1 {
		t.Fatalf("a refused connection was tried %d times", n)
	}
}

// Other transient failures are still retried.
func TestUnavailableIsRetried(t *testing.T) {
	f := &flaky{err: &Error{Op: OpCharge, Kind: ErrUnavailable, StatusCode: 503}}
	c := WithRetry(f, Config{RetryMaxElapsed: 300 * time.Millisecond})
	if _, err := c.CreateCharge(context.Background(), ChargeRequest{ID: "c-1"}); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("err = %v", err)
	}
	if n := f.calls.Load(); n < 2 {
		t.Fatalf("a 503 was tried %d times", n)
	}
}

// A read, retries included, ends at ReadTimeout, however long the caller
// would wait.
func TestReadIsBoundedByReadTimeout(t *testing.T) {
	f := &flaky{hang: true}
	c := WithRetry(f, Config{ReadTimeout: 50 * time.Millisecond, RetryMaxElapsed: time.Minute})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := c.Read(ctx, Ref{}); !errors.Is(err, ErrUnknownOutcome) {
		t.Fatalf("err = %v", err)
	}
	if ctx.Err() != nil {
		t.Fatal("the read lasted as long as its caller's context")
	}
}
