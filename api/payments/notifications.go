package payments

import (
	"context"
	"errors"
	"net/http"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/tasks"
)

// ErrUnknownProvider: a notification names a provider the process does
// not have.
var ErrUnknownProvider = errors.New("no such provider")

// ReceiveNotification takes one notification of provider (by name): the
// provider's connector reads its claims (one per transaction it names; a
// BCB batch names several), and each is stored as it came, with the outbox
// row that has a worker read the transaction back from the provider before
// anything moves; nothing in it is believed here. duplicate is true when
// every claim is a copy of one already confirmed and applied (and then
// nothing is stored). A body that names no transaction is a
// *providerclient.NotificationError, and nothing is stored. The worker
// reads each claimed transaction at the provider recorded on PixGate's own
// record of it.
func (s *Service) ReceiveNotification(ctx context.Context, provider string, header http.Header, body []byte) (duplicate bool, err error) {
	if s.provider == nil {
		return false, &providerclient.Error{Op: "read notification", Kind: providerclient.ErrUnavailable, Message: "no provider configured"}
	}
	parser := s.provider
	if provider != providerclient.DefaultName {
		fleet, ok := s.provider.(Providers)
		if !ok {
			return false, ErrUnknownProvider
		}
		if parser, ok = fleet.Provider(provider); !ok {
			return false, ErrUnknownProvider
		}
	}
	events, err := parser.ParseNotification(header, body)
	if err != nil {
		return false, err
	}
	duplicate = true
	for _, ev := range events {
		_, stored, err := s.store.RecordProviderEvent(ctx, storage.NewProviderEvent{
			TransactionType: string(ev.Kind), TransactionID: ev.ProviderID, Status: string(ev.Status), Payload: ev.Payload,
			Provider: provider, ExternalID: ev.ID,
		}, func(id int64) storage.OutboxMessage {
			return storage.OutboxMessage(tasks.Traced(ctx, tasks.NewProviderEventMessage(tasks.ProviderEvent{
				EventID: id, TransactionType: string(ev.Kind), TransactionID: ev.ProviderID})))
		})
		if err != nil {
			return false, err
		}
		duplicate = duplicate && !stored
	}
	return duplicate, nil
}
