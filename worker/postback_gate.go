package worker

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/pixgate/pixgate/storage"
)

// Before its attempt a delivery passes two gates. Its integrator's slots:
// one worker process runs at most postback.Config.PerIntegrator deliveries
// of one integrator at once, so an endpoint that hangs until the timeout
// holds that many slots of the postbacks lane, never all of them. Its
// endpoint: a paused or disabled one holds its postbacks (they wait
// PENDING for the resume, which queues them again), and a resumed one
// delivers them oldest first.
//
// A delivery turned away by either waits as a provider's task over its
// share does (errShareFull): it spends no retry and no attempt, and comes
// back after shareRetry. Nothing is lost: its postback stays PENDING in
// Postgres, where the reconciler finds it if the queue drops the task.

// integratorSlots counts each integrator's deliveries running in this
// process.
type integratorSlots struct {
	most int
	mu   sync.Mutex
	held map[int64]int
}

func newIntegratorSlots(most int) *integratorSlots {
	return &integratorSlots{most: max(1, most), held: map[int64]int{}}
}

// take holds one of integrator's slots, or says they are all in use; a
// held slot is given back by the function it returns.
func (s *integratorSlots) take(integrator int64) (func(), bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.held[integrator] >= s.most {
		return nil, false
	}
	s.held[integrator]++
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.held[integrator]--; s.held[integrator] <= 0 {
			delete(s.held, integrator)
		}
	}, true
}

// errIntegratorBusy and errEndpointOrder are deliveries that wait.
var (
	errIntegratorBusy = fmt.Errorf("its integrator's deliveries hold all their slots of the lane: %w", errShareFull)
	errEndpointOrder  = fmt.Errorf("an older postback of its resumed endpoint goes first: %w", errShareFull)
)

// errEndpointHeld is a delivery its paused or disabled endpoint holds.
var errEndpointHeld = errors.New("its endpoint is paused or disabled")

// gatePostback passes pb through both gates. On success the caller holds
// an integrator slot until it calls release; errEndpointHeld means the
// postback waits for its endpoint's resume and the task is done.
func (w *Worker) gatePostback(ctx context.Context, pb storage.Postback) (release func(), err error) {
	release, ok := w.postbackSlots.take(pb.IntegratorID)
	if !ok {
		return nil, errIntegratorBusy
	}
	may, err := w.postbacks.MayHoldDeliveries(ctx, pb.IntegratorID)
	if err == nil && !may {
		return release, nil // none of its endpoints was ever held: nothing to ask
	}
	g, err := w.postbacks.GateDelivery(ctx, pb.IntegratorID, pb.URL, pb.ID, taskID(ctx))
	switch {
	case err != nil:
	case g == storage.GateHold:
		err = errEndpointHeld
	case g == storage.GateWait:
		err = errEndpointOrder
	}
	if err != nil {
		release()
		return nil, err
	}
	return release, nil
}
