package fleet

import (
	"context"
	"errors"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient"
)

// fake is a provider whose answers follow scripts: each call takes the next
// answer of its operation's script (the last one repeats; nil is a
// success). hold, when set, is waited on inside CreateCharge, and entered
// told when a call is inside.
type fake struct {
	providerclient.Connector
	name string

	mu      sync.Mutex
	creates []error
	reads   []error
	balance []error
	calls   map[string]int

	hold    chan struct{}
	entered chan struct{}
	notify  []string // the NotifyURL of every create
	// due: it takes due-date charges.
	due bool
}

func (f *fake) Capabilities() providerclient.Capabilities {
	return providerclient.Capabilities{DueCharges: f.due}
}

func newFake(name string) *fake { return &fake{name: name, calls: map[string]int{}} }

func (f *fake) next(op string, script []error) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := f.calls[op]
	f.calls[op]++
	if len(script) == 0 {
		return nil
	}
	return script[min(n, len(script)-1)]
}

func (f *fake) count(op string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls[op]
}

func (f *fake) Name() string { return f.name }
func (f *fake) Kind() string { return "fake" }

func (f *fake) CreateCharge(ctx context.Context, req providerclient.ChargeRequest) (*providerclient.Charge, error) {
	if f.entered != nil {
		f.entered <- struct{}{}
	}
	if f.hold != nil {
		<-f.hold
	}
	f.mu.Lock()
	f.notify = append(f.notify, req.NotifyURL)
	f.mu.Unlock()
	if err := f.next("create", f.creates); err != nil {
		return nil, err
	}
	return &providerclient.Charge{ProviderID: f.name + "-" + req.ID, BRCode: "br-" + f.name}, nil
}

func (f *fake) Read(ctx context.Context, ref providerclient.Ref) (*providerclient.Transaction, error) {
	if err := f.next("read", f.reads); err != nil {
		return nil, err
	}
	return &providerclient.Transaction{Kind: ref.Kind, ExternalID: ref.ID, Status: providerclient.StatusPending}, nil
}

func (f *fake) Balance(context.Context) (*providerclient.Balance, error) {
	if err := f.next("balance", f.balance); err != nil {
		return nil, err
	}
	return &providerclient.Balance{}, nil
}

// Provider errors as the connectors make them.
var (
	errRefused = &providerclient.Error{Op: providerclient.OpCharge, Kind: providerclient.ErrUnavailable,
		Err: &providerclient.Error{Kind: providerclient.ErrUnavailable, Err: syscall.ECONNREFUSED}}
	err503      = &providerclient.Error{Op: providerclient.OpCharge, Kind: providerclient.ErrUnavailable, StatusCode: 503}
	err429      = &providerclient.Error{Op: providerclient.OpCharge, Kind: providerclient.ErrUnavailable, StatusCode: 429}
	errTimeout  = &providerclient.Error{Op: providerclient.OpCharge, Kind: providerclient.ErrUnknownOutcome, Err: context.DeadlineExceeded}
	errRejected = &providerclient.Error{Op: providerclient.OpCharge, Kind: providerclient.ErrRejected, StatusCode: 422, Message: "bad payer"}
	errNotFound = &providerclient.Error{Op: providerclient.OpRead, Kind: providerclient.ErrNotFound, StatusCode: 404}
	// errAbsent and errRefusedAbsent: the connector proved the provider
	// holds nothing under PixGate's id (a read by it, a refusal).
	errAbsent        = &providerclient.Error{Op: providerclient.OpRead, Kind: providerclient.ErrNotFound, StatusCode: 404, Absent: true}
	errRefusedAbsent = &providerclient.Error{Op: providerclient.OpPayout, Kind: providerclient.ErrRejected, StatusCode: 422, Absent: true}
	errOpen          = &providerclient.Error{Op: providerclient.OpCharge, Kind: providerclient.ErrBreakerOpen}
	errFull          = &providerclient.Error{Op: providerclient.OpCharge, Kind: ErrBulkheadFull}
	errNoCharge      = &providerclient.Error{Op: providerclient.OpCharge, Kind: providerclient.ErrUnsupported}
	errOther         = errors.New("something unclassified")
)

// clock is a settable time.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// newFleet builds a fleet of the fakes, in route order, without
// in-process retries unless retries is set.
func newFleet(t *testing.T, opts Options, retries bool, fakes ...*fake) *Fleet {
	t.Helper()
	var members []Member
	for _, f := range fakes {
		cfg := providerclient.Config{Name: f.name, RetryMaxElapsed: -1}
		if retries {
			cfg.RetryMaxElapsed = time.Minute
		}
		members = append(members, Member{Config: cfg, Connector: f})
	}
	fl, err := New(opts, members...)
	if err != nil {
		t.Fatal(err)
	}
	return fl
}

func names(ms []*member) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.name)
	}
	return out
}
