package providerclient_test

import (
	"context"
	"errors"
	"syscall"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient"
)

// scriptedPayouts answers each SendPix with the next error of its script.
type scriptedPayouts struct {
	providerclient.Connector
	script []error
	calls  int
}

func (s *scriptedPayouts) SendPix(context.Context, providerclient.PayoutRequest) (*providerclient.Payout, error) {
	err := s.script[min(s.calls, len(s.script)-1)]
	s.calls++
	return nil, err
}

// A retry that ends on a refused connection after an attempt the provider
// answered (a 503, a 504 from its gateway: the request reached it) does not
// report "nothing sent": the answered attempt may have paid, and a caller
// that moves a withdrawal to another provider on a refused connection
// would pay it twice.
func TestRetryKeepsAnAnsweredAttempt(t *testing.T) {
	answered := &providerclient.Error{Op: providerclient.OpPayout, Kind: providerclient.ErrUnavailable,
		Err: &providerclient.Error{Kind: providerclient.ErrUnavailable, StatusCode: 504}}
	refused := &providerclient.Error{Op: providerclient.OpPayout, Kind: providerclient.ErrUnavailable,
		Err: &providerclient.Error{Kind: providerclient.ErrUnavailable, Err: syscall.ECONNREFUSED}}
	s := &scriptedPayouts{script: []error{answered, refused}}
	c := providerclient.WithRetry(s, providerclient.Config{RetryMaxElapsed: time.Minute})
	_, err := c.SendPix(context.Background(), providerclient.PayoutRequest{ID: "w1"})
	if s.calls != 2 || errors.Is(err, syscall.ECONNREFUSED) || err != answered {
		t.Fatalf("after %d calls: %v, want the answered attempt's 504 after 2", s.calls, err)
	}
}
