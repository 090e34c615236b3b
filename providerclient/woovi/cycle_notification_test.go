package woovi_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/woovi"
)

// cobrCompleted is Woovi's example of PIX_AUTOMATIC_COBR_COMPLETED
// ([Woovi-Hooks]), its try's trailing comma removed (the page's examples
// are not valid JSON as written).
const cobrCompleted = `{"event": "PIX_AUTOMATIC_COBR_COMPLETED", "dateGenerateCharge": "2025-08-24T12:00:00.000Z", "expiration": 259200,
	"installmentNumber": 1, "value": 100, "status": "COMPLETED", "createdAt": "2025-08-22T14:48:02.697Z",
	"cobr": {"identifierId": "01K3942Y0DFEK73H541ZADVK0P", "recurrencyId": "RN5481141720250822YHKirVyWBjF", "status": "COMPLETED",
		"endToEndId": "my-end-to-end-id",
		"tries": [{"tryStatus": "PAID", "value": 1, "finalityPurpose": "AGND", "requestedExecutionDate": "2025-09-05T12:00:00.000Z",
			"createdAt": "2025-09-04T03:01:58.543Z", "updatedAt": "2025-09-04T03:04:03.921Z"}],
		"value": 100, "createdAt": "2025-08-22T14:49:22.702Z"},
	"correlationID": "9134e286-6f71-427a-bf00-100000000005",
	"paymentSubscriptionGlobalID": "UGF5bWVudFN1YnNjcmlwdGlvbjo2OGFjYmNkNGE5NTY1M2VmMjQzYjY2Zjc=",
	"globalID": "UGF5bWVudFN1YnNjcmlwdGlvbkluc3RhbGxtZW50OjY4YTg4MzIyZDY1Y2IyZDUwN2EyZWUzYg=="}`

// cobrWebhook is one of Woovi's COBR examples' shape, with the event,
// the cobr's status and its try's.
func cobrWebhook(event, cobrStatus, tryStatus, code string) string {
	return `{"event": "` + event + `", "dateGenerateCharge": "2025-09-05T12:00:00.000Z", "installmentNumber": 2, "value": 1,
		"cobr": {"identifierId": "01K49ARZMETSD7XJ2H86HV188H", "status": "` + cobrStatus + `", "rejectCode": "` + code + `",
			"tries": [{"tryStatus": "` + tryStatus + `", "finalityPurpose": "AGND", "requestedExecutionDate": "2025-09-05T12:00:00.000Z",
				"rejectCode": "` + code + `"}], "value": 1},
		"correlationID": "9134e286-6f71-427a-bf00-100000000005", "paymentSubscriptionGlobalID": "sub1", "globalID": "inst2"}`
}

// Each of Woovi's cycle events is an Event of the cycle named by its
// installment's globalID, without PixGate's id (its correlationID is the
// subscription's), with the status its cobr claims in PixGate's terms, or
// the event's when it names none; one without a globalID is refused.
func TestCycleNotificationParses(t *testing.T) {
	conn, err := woovi.New(providerclient.Config{Kind: providerclient.KindWoovi, ClientID: "app-id"}) // no signature checked
	if err != nil {
		t.Fatal(err)
	}
	evs, err := conn.ParseNotification(nil, []byte(cobrCompleted))
	want := providerclient.Event{Kind: providerclient.KindRecurrenceCycle,
		ProviderID: "UGF5bWVudFN1YnNjcmlwdGlvbkluc3RhbGxtZW50OjY4YTg4MzIyZDY1Y2IyZDUwN2EyZWUzYg==", Status: "PAID", Payload: []byte(cobrCompleted)}
	if err != nil || len(evs) != 1 || !reflect.DeepEqual(evs[0], want) {
		t.Fatalf("completed: %+v, %v", evs, err)
	}
	for _, c := range []struct{ body, status string }{
		{cobrWebhook("PIX_AUTOMATIC_COBR_CREATED", "CREATED", "REQUESTED", ""), "CREATED"},
		{cobrWebhook("PIX_AUTOMATIC_COBR_APPROVED", "ACTIVE", "SCHEDULED", ""), "ACTIVE"},
		{cobrWebhook("PIX_AUTOMATIC_COBR_TRY_REJECTED", "FAILED_TRY", "REJECTED", "FBRD"), "CREATED"},
		{cobrWebhook("PIX_AUTOMATIC_COBR_TRY_REQUESTED", "CREATED", "REQUESTED", ""), "CREATED"},
		{cobrWebhook("PIX_AUTOMATIC_COBR_REJECTED", "REJECTED", "REJECTED", "DTED"), "REJECTED"},
		{cobrWebhook("PIX_AUTOMATIC_COBR_REJECTED", "REJECTED", "REJECTED", "AM02"), "EXPIRED"},
		{`{"event": "PIX_AUTOMATIC_COBR_APPROVED", "globalID": "inst2"}`, "ACTIVE"},
		{`{"event": "PIX_AUTOMATIC_COBR_COMPLETED", "globalID": "inst2", "cobr": {"status": "NEW"}}`, "PAID"},
	} {
		evs, err := conn.ParseNotification(nil, []byte(c.body))
		if err != nil || len(evs) != 1 || evs[0].Kind != providerclient.KindRecurrenceCycle || evs[0].ProviderID != "inst2" ||
			evs[0].ID != "" || string(evs[0].Status) != c.status {
			t.Errorf("%s: %+v, %v", c.body, evs, err)
		}
	}
	var ne *providerclient.NotificationError
	for _, body := range []string{`{"event": "PIX_AUTOMATIC_COBR_CREATED", "correlationID": "c1"}`,
		`{"event": "PIX_AUTOMATIC_COBR_CREATED", "globalID": "` + strings.Repeat("x", 129) + `"}`} {
		if _, err := conn.ParseNotification(nil, []byte(body)); !errors.As(err, &ne) || ne.Field != "globalID" {
			t.Errorf("%.60s: %v", body, err)
		}
	}
	if _, err := conn.ParseNotification(nil, []byte(`{"event": "PIX_AUTOMATIC_COBR_CREATED", "cobr": []}`)); !errors.As(err, &ne) {
		t.Errorf("a cobr that is no object: %v", err)
	}
}
