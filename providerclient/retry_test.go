package providerclient_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient"
)

// scripted answers each CreateCharge with the next error of its script.
type scripted struct {
	providerclient.Connector
	script []error
	calls  int
}

func (s *scripted) CreateCharge(context.Context, providerclient.ChargeRequest) (*providerclient.Charge, error) {
	err := s.script[min(s.calls, len(s.script)-1)]
	s.calls++
	return nil, err
}

// A retry that ends on "nothing sent" after an attempt whose outcome was
// unknown still reports the unknown outcome: the first attempt may have
// created the charge, and a caller moving on to another provider on the
// strength of the last error would create it twice.
func TestRetryKeepsAnUnknownOutcome(t *testing.T) {
	unknown := &providerclient.Error{Op: providerclient.OpCharge, Kind: providerclient.ErrUnknownOutcome}
	s := &scripted{script: []error{
		unknown,
		&providerclient.Error{Op: providerclient.OpCharge, Kind: providerclient.ErrUnavailable},
		&providerclient.Error{Op: providerclient.OpCharge, Kind: providerclient.ErrBreakerOpen},
	}}
	c := providerclient.WithRetry(s, providerclient.Config{RetryMaxElapsed: time.Minute})
	_, err := c.CreateCharge(context.Background(), providerclient.ChargeRequest{ID: "c1"})
	if !errors.Is(err, providerclient.ErrUnknownOutcome) || s.calls != 3 {
		t.Fatalf("after %d calls: %v, want the unknown outcome after 3", s.calls, err)
	}
}
