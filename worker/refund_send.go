package worker

import (
	"context"

	"github.com/hibiken/asynq"

	"github.com/pixgate/pixgate/tasks"
)

// sendRefund sends a PROCESSING refund to the provider's /v2/pix/refund,
// naming the refunded charge by the provider's id for it (see
// sendTransfer).
func (w *Worker) sendRefund(ctx context.Context, t *asynq.Task) error {
	var p tasks.RefundSend
	if err := tasks.Decode(t, &p); err != nil {
		return err
	}
	return sendTransfer(ctx, w, p.RefundID, w.refunds(), w.resendRefund, w.deps.DB.RecordRefundSent)
}
