package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/storagetest"
)

func TestPostbacksListShowRedeliver(t *testing.T) {
	storagetest.Parallel(t, cliConns)
	p := newPixgate(t)
	var in struct{ ID int64 }
	p.json(&in, "integrator", "create", "--name", "Loja", "--email", "pb@loja.example")
	ctx := context.Background()
	db := openSide(t, p.env["PIXGATE_DATABASE_URL"])
	id := uuid.Must(uuid.NewV7())
	err := db.InTx(ctx, func(tx *storage.Tx) error {
		return tx.WritePostback(ctx, storage.NewPostback{ID: id, IntegratorID: in.ID, ResourceType: "charge", ResourceID: uuid.New(),
			Event: "PAID", URL: "https://loja.example/pix", Body: []byte(`{"requestBody":{"status":"PAID","external_id":"pedido-77"}}`),
			Outbox: storage.OutboxMessage{Type: "postback:deliver", ID: "postback:deliver:" + id.String(), Payload: []byte(`{}`)}})
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.RecordPostbackAttempt(ctx, id, storage.PostbackAttemptResult{StatusCode: 500, Err: "receiver answered 500",
		Outcome: storage.OutcomeFailed}); err != nil {
		t.Fatal(err)
	}

	jsonOf := func(v any, args ...string) {
		t.Helper()
		code, out, errs := p.run(append(args, "--json")...)
		if code != 0 {
			t.Fatalf("pixgate %v: exit %d: %s", args, code, errs)
		}
		if err := json.Unmarshal([]byte(out), v); err != nil {
			t.Fatalf("pixgate %v: stdout is not one JSON object: %v\n%s", args, err, out)
		}
	}
	type view struct {
		ID             string
		Status         string
		Attempts       int
		LastStatusCode *int    `json:"last_status_code"`
		ExternalID     *string `json:"external_id"`
		Body           *string
		AttemptList    []struct {
			Attempt    int
			StatusCode *int `json:"status_code"`
			Error      *string
		} `json:"attempt_list"`
	}
	var list struct{ Postbacks []view }
	jsonOf(&list, "postbacks", "list", "--integrator", "1")
	if len(list.Postbacks) != 1 || list.Postbacks[0].ID != id.String() || list.Postbacks[0].Status != "FAILED" ||
		*list.Postbacks[0].LastStatusCode != 500 || list.Postbacks[0].Body != nil || *list.Postbacks[0].ExternalID != "pedido-77" {
		t.Fatalf("list = %+v", list)
	}
	var shown view
	jsonOf(&shown, "postbacks", "show", id.String())
	if shown.Body == nil || *shown.Body != `{"requestBody":{"status":"PAID","external_id":"pedido-77"}}` || len(shown.AttemptList) != 1 ||
		*shown.AttemptList[0].StatusCode != 500 || *shown.AttemptList[0].Error != "receiver answered 500" {
		t.Fatalf("show = %+v", shown)
	}

	var again view
	jsonOf(&again, "postbacks", "redeliver", id.String())
	if again.Status != "PENDING" || again.Attempts != 1 {
		t.Fatalf("redeliver = %+v", again)
	}
	var queued int
	if err := db.Pool().QueryRow(ctx, `SELECT count(*) FROM outbox WHERE task_id = $1 AND enqueued_at IS NULL`,
		"postback:deliver:"+id.String()+":2").Scan(&queued); err != nil || queued != 1 {
		t.Fatalf("redelivery outbox rows = %d %v", queued, err)
	}

	code, out, _ := p.run("postbacks", "list", "--integrator", "1")
	if code != 0 || !strings.Contains(out, id.String()) || !strings.Contains(out, "PENDING") || !strings.Contains(out, "NEXT ATTEMPT") ||
		!strings.Contains(out, "EXTERNAL ID") || !strings.Contains(out, "pedido-77") {
		t.Fatalf("list as text: exit %d\n%s", code, out)
	}
	code, out, _ = p.run("postbacks", "show", id.String())
	if code != 0 || !strings.Contains(out, "receiver answered 500") || !strings.Contains(out, `"status":"PAID"`) {
		t.Fatalf("show as text: exit %d\n%s", code, out)
	}

	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"postbacks", "redeliver", uuid.NewString()}, "not found"},
		{[]string{"postbacks", "show", "nope"}, "not a UUID"},
		{[]string{"postbacks", "list", "--integrator", "1", "--limit", "0"}, "--limit"},
		{[]string{"postbacks", "list"}, "integrator"},
	} {
		if code, _, errs := p.run(tt.args...); code == 0 || !strings.Contains(errs, tt.want) {
			t.Errorf("pixgate %v: exit %d, stderr %q; want failure mentioning %q", tt.args, code, errs, tt.want)
		}
	}
}
