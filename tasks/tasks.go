// Package tasks is the contract between the API and the workers: task type
// names, one payload per type, and the queue options of each type.
//
// Tasks are requested through the transactional outbox: a Message is written
// in the same SQL transaction as the state change that needs it, queued
// right after that commit by the process that wrote it, and, should that
// hand-off be lost, by the outbox relay. Every Message has a TaskID
// derived from database ids, so a task enqueued twice is refused by the
// queue (asynq.ErrTaskIDConflict), and every handler is idempotent against
// Postgres state besides: delivery is at least once, money effects exactly once.
package tasks

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/hibiken/asynq"
)

// Task types, named domain:action.
const (
	TypeWithdrawalSend  = "withdrawal:send"
	TypeRefundSend      = "refund:send"
	TypeMedReturnSend   = "med_return:send"
	TypeProviderEvent   = "provider:event"
	TypePostbackDeliver = "postback:deliver"
	TypeReconcileTick   = "reconcile:tick"
	// TypeWithdrawalDecided posts the postbacks of a withdrawal or a batch
	// rejected (or expired) while awaiting approval.
	TypeWithdrawalDecided = "withdrawal:decided"
)

// Queues. Each is served by a worker lane of its own (worker/lanes.go),
// with its own capacity: provider sends, provider notifications, postbacks,
// and maintenance.
const (
	QueueCritical  = "critical"
	QueueEvents    = "events"
	QueuePostbacks = "postbacks"
	QueueDefault   = "default"
)

// Queues lists every queue a task type is put on.
var Queues = []string{QueueCritical, QueueEvents, QueuePostbacks, QueueDefault}

// options of each type: queue, timeout, retries and how long a finished
// task keeps its id (so that a late duplicate enqueue is still refused).
var options = map[string][]asynq.Option{
	TypeWithdrawalSend: {asynq.Queue(QueueCritical), asynq.Timeout(45 * time.Second), asynq.MaxRetry(25), asynq.Retention(24 * time.Hour)},
	TypeRefundSend:     {asynq.Queue(QueueCritical), asynq.Timeout(45 * time.Second), asynq.MaxRetry(25), asynq.Retention(24 * time.Hour)},
	TypeMedReturnSend:  {asynq.Queue(QueueCritical), asynq.Timeout(45 * time.Second), asynq.MaxRetry(25), asynq.Retention(24 * time.Hour)},
	TypeProviderEvent:  {asynq.Queue(QueueEvents), asynq.Timeout(45 * time.Second), asynq.MaxRetry(25), asynq.Retention(24 * time.Hour)},
	// Postbacks retry on the delivery's own schedule (exponential, about 3
	// days); 40 queue retries outlast it, and the delivery gives up by age.
	TypePostbackDeliver:   {asynq.Queue(QueuePostbacks), asynq.Timeout(30 * time.Second), asynq.MaxRetry(40), asynq.Retention(24 * time.Hour)},
	TypeReconcileTick:     {asynq.Queue(QueueDefault), asynq.Timeout(2 * time.Minute), asynq.MaxRetry(0), asynq.Retention(time.Hour)},
	TypeWithdrawalDecided: {asynq.Queue(QueuePostbacks), asynq.Timeout(2 * time.Minute), asynq.MaxRetry(25), asynq.Retention(24 * time.Hour)},
}

// Message asks for one task. The API and workers write it to the outbox;
// the relay enqueues it with NewTask.
type Message struct {
	Type    string
	ID      string // the asynq TaskID
	Payload []byte // JSON
}

// NewTask builds the asynq task of a message, with its type's options and
// its TaskID. Extra options (e.g. asynq.ProcessIn) come last and win.
func NewTask(taskType, taskID string, payload []byte, extra ...asynq.Option) (*asynq.Task, error) {
	opts, ok := options[taskType]
	if !ok {
		return nil, fmt.Errorf("tasks: unknown task type %q", taskType)
	}
	all := append(append(append([]asynq.Option{}, opts...), asynq.TaskID(taskID)), extra...)
	return asynq.NewTask(taskType, payload, all...), nil
}

// Task builds the message's asynq task.
func (m Message) Task(extra ...asynq.Option) (*asynq.Task, error) {
	return NewTask(m.Type, m.ID, m.Payload, extra...)
}

// taskID derives a task id from the database id it acts on:
// "type:id" for the first task, "type:id:attempt" for a re-drive, which the
// queue must not refuse as a duplicate of the first.
func taskID(taskType, dbID string, attempt int) string {
	if attempt > 0 {
		return fmt.Sprintf("%s:%s:%d", taskType, dbID, attempt)
	}
	return taskType + ":" + dbID
}

func message(taskType, id string, payload any) Message {
	b, err := json.Marshal(payload)
	if err != nil {
		panic(fmt.Sprintf("tasks: payload of %s does not marshal: %v", taskType, err)) // payloads are plain structs
	}
	return Message{Type: taskType, ID: id, Payload: b}
}

// Decode reads a task payload, marking a payload that cannot be read as not
// worth retrying.
func Decode(t *asynq.Task, v any) error {
	if err := json.Unmarshal(t.Payload(), v); err != nil {
		return fmt.Errorf("tasks: %s payload: %v: %w", t.Type(), err, asynq.SkipRetry)
	}
	return nil
}

// WithdrawalSend asks a worker to send a withdrawal to the provider.
type WithdrawalSend struct {
	WithdrawalID uuid.UUID `json:"withdrawal_id"`
}

// WithdrawalSendMessage is the outbox message of a new withdrawal. attempt
// is 0 for the first send; the reconciler uses later attempts to re-drive a
// withdrawal whose task was exhausted.
func WithdrawalSendMessage(id uuid.UUID, attempt int) Message {
	return message(TypeWithdrawalSend, taskID(TypeWithdrawalSend, id.String(), attempt), WithdrawalSend{WithdrawalID: id})
}

// WithdrawalDecided asks a worker to post the postbacks of a rejected (or
// expired) withdrawal, or of a batch and its items: one of the two ids is
// set.
type WithdrawalDecided struct {
	WithdrawalID *uuid.UUID `json:"withdrawal_id,omitempty"`
	BatchID      *uuid.UUID `json:"batch_id,omitempty"`
}

// WithdrawalRejectedMessage is the outbox message of a withdrawal's
// rejection.
func WithdrawalRejectedMessage(id uuid.UUID) Message {
	return message(TypeWithdrawalDecided, taskID(TypeWithdrawalDecided, id.String(), 0), WithdrawalDecided{WithdrawalID: &id})
}

// BatchRejectedMessage is the outbox message of a batch's rejection.
func BatchRejectedMessage(id uuid.UUID) Message {
	return message(TypeWithdrawalDecided, taskID(TypeWithdrawalDecided, "batch:"+id.String(), 0), WithdrawalDecided{BatchID: &id})
}

// RefundSend asks a worker to send a refund to the provider.
type RefundSend struct {
	RefundID uuid.UUID `json:"refund_id"`
}

// RefundSendMessage is the outbox message of a new refund; attempt > 0
// names a re-drive by the reconciler.
func RefundSendMessage(id uuid.UUID, attempt int) Message {
	return message(TypeRefundSend, taskID(TypeRefundSend, id.String(), attempt), RefundSend{RefundID: id})
}

// MedReturnSend asks a worker to find, at the provider, the MED return it
// made of an agreed infraction (the provider returns the money itself).
type MedReturnSend struct {
	MedReturnID uuid.UUID `json:"med_return_id"`
}

// MedReturnSendMessage is the outbox message of a new MED return; attempt
// > 0 names a re-drive by the reconciler.
func MedReturnSendMessage(id uuid.UUID, attempt int) Message {
	return message(TypeMedReturnSend, taskID(TypeMedReturnSend, id.String(), attempt), MedReturnSend{MedReturnID: id})
}

// ProviderEvent asks a worker to confirm and apply one stored provider
// notification. TransactionType and TransactionID repeat the event's claim
// (the stored event is what counts), so that the worker reads the event
// and the record it names together; tasks enqueued without them read the
// event first.
type ProviderEvent struct {
	EventID         int64  `json:"event_id"`
	TransactionType string `json:"transaction_type,omitempty"`
	TransactionID   string `json:"transaction_id,omitempty"`
}

// ProviderEventMessage is the outbox message of a re-drive of stored
// notification ev by the reconciler (attempt > 0, the reconciler's slot).
func ProviderEventMessage(ev ProviderEvent, attempt int) Message {
	return message(TypeProviderEvent, taskID(TypeProviderEvent, strconv.FormatInt(ev.EventID, 10), attempt), ev)
}

// NewProviderEventMessage is the outbox message of a notification just
// stored. Its TaskID carries a random part besides the event's id: event
// ids come from a sequence, which starts again in a new database and goes
// back in one restored from a backup, while the queue keeps a finished
// task's id for a day; an id that only repeated the sequence would make a
// new event's task a duplicate of an old one that the queue silently
// drops, and the event would wait for the reconciler. The outbox row keeps
// the whole TaskID, so the relay enqueues the same one.
func NewProviderEventMessage(ev ProviderEvent) Message {
	nonce := make([]byte, 6)
	_, _ = rand.Read(nonce) // crypto/rand.Read never fails
	return message(TypeProviderEvent, TypeProviderEvent+":"+strconv.FormatInt(ev.EventID, 10)+"-"+hex.EncodeToString(nonce), ev)
}

// PostbackDeliver asks a worker to deliver one postback to an integrator.
type PostbackDeliver struct {
	PostbackID uuid.UUID `json:"postback_id"`
	// First, in a new postback's first delivery, is what a delivery needs
	// of the postback (none of it ever changes), so that the first attempt
	// reads nothing but its integrator's signing secret, which workers keep
	// in memory. Retries, redeliveries and re-drives read the postback.
	First *PostbackCopy `json:"first,omitempty"`
}

// PostbackCopy is a new postback as its first delivery sends it.
type PostbackCopy struct {
	IntegratorID int64  `json:"integrator_id"`
	URL          string `json:"url"`
	Body         string `json:"body"` // exactly the bytes signed and sent
}

// NewPostbackMessage is the outbox message of a new postback, carrying it
// for its first delivery.
func NewPostbackMessage(postbackID uuid.UUID, c PostbackCopy) Message {
	return message(TypePostbackDeliver, taskID(TypePostbackDeliver, postbackID.String(), 0), PostbackDeliver{PostbackID: postbackID, First: &c})
}

// PostbackDeliverMessage is the outbox message of a postback's delivery
// that reads it first; attempt > 0 names a redelivery (operator or
// reconciler).
func PostbackDeliverMessage(postbackID uuid.UUID, attempt int) Message {
	return message(TypePostbackDeliver, taskID(TypePostbackDeliver, postbackID.String(), attempt), PostbackDeliver{PostbackID: postbackID})
}

// PostbackRedeliveryMessage is a redelivery an operator or an integrator
// asked at at (a resume, a replay): named by its millisecond, so that its
// task id never clashes with the postback's earlier ones, which the queue
// keeps for a day.
func PostbackRedeliveryMessage(postbackID uuid.UUID, at time.Time) Message {
	return PostbackDeliverMessage(postbackID, int(at.UnixMilli()))
}

// ReconcileTick is the periodic reconciliation; Slot names its time slot so
// that workers ticking together enqueue it once.
type ReconcileTick struct {
	Slot int64 `json:"slot"`
}

// ReconcileTickMessage is the tick of the slot containing now.
func ReconcileTickMessage(now time.Time, every time.Duration) Message {
	slot := now.UnixNano() / max(every.Nanoseconds(), 1)
	return message(TypeReconcileTick, fmt.Sprintf("%s:%d", TypeReconcileTick, slot), ReconcileTick{Slot: slot})
}
