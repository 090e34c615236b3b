package load

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

// send is the send consumer: commit 2 claims the withdrawal, the provider
// takes the send, commit 3 records it.
func (a *arch) send(ctx context.Context, msg string) error {
	id, err := uuid.Parse(msg)
	if err != nil {
		return err
	}
	var amount int64
	claimed := true
	b := &pgx.Batch{}
	b.Queue(`BEGIN`)
	b.Queue(`UPDATE arch_withdrawals SET status = 'SENDING', updated_at = now() WHERE id = $1 AND status = 'PROCESSING' RETURNING amount`, id)
	b.Queue(`DELETE FROM arch_outbox WHERE kind = 'send' AND ref = $1`, id)
	b.Queue(`COMMIT`)
	err = a.pipeline(ctx, b, func(br pgx.BatchResults) error {
		if _, err := br.Exec(); err != nil {
			return err
		}
		if err := br.QueryRow().Scan(&amount); errors.Is(err, pgx.ErrNoRows) {
			claimed = false // sent already: a repeated message
		} else if err != nil {
			return err
		}
		return nil
	})
	if err != nil || !claimed {
		return err
	}
	body, _ := json.Marshal(map[string]any{"external_id": id, "amount": amount, "key": "beltrano@example.com"})
	var sent struct {
		ID string `json:"id"`
	}
	if err := a.call(ctx, http.MethodPost, a.provider+"/sends", body, nil, &sent); err != nil {
		return fmt.Errorf("send: %w", err)
	}
	_, err = a.pool.Exec(ctx, `UPDATE arch_withdrawals SET status = 'SENT', pix_id = $2, updated_at = now() WHERE id = $1 AND status = 'SENDING'`, id, sent.ID)
	return err
}

// archNotice is a provider notification, and a consult's answer.
type archNotice struct {
	ID         string `json:"id"`
	ExternalID string `json:"external_id"`
	Status     string `json:"status"`
}

// notified is the program's notification server: commit 4 stores the raw
// notification with an outbox row for its event, the event goes to hop 2
// and the provider has its 200.
func (a *arch) notified(w http.ResponseWriter, r *http.Request) {
	raw, err := io.ReadAll(io.LimitReader(r.Body, 64<<10))
	var n archNotice
	if err == nil {
		err = json.Unmarshal(raw, &n)
	}
	if err != nil || n.ID == "" {
		http.Error(w, "bad notification", http.StatusBadRequest)
		return
	}
	ctx := r.Context()
	event := uuid.New()
	stored := false
	b := &pgx.Batch{}
	b.Queue(`BEGIN`)
	b.Queue(`INSERT INTO arch_events (id, pix_id, status, body) VALUES ($1, $2, $3, $4) ON CONFLICT (pix_id, status) DO NOTHING`, event, n.ID, n.Status, raw)
	b.Queue(`INSERT INTO arch_outbox (kind, ref) SELECT 'event', id FROM arch_events WHERE id = $1`, event)
	b.Queue(`COMMIT`)
	err = a.pipeline(ctx, b, func(br pgx.BatchResults) error {
		if _, err := br.Exec(); err != nil {
			return err
		}
		tag, err := br.Exec()
		stored = tag.RowsAffected() == 1 // else a copy of one stored before
		return err
	})
	if err == nil && stored {
		err = a.events.push(context.WithoutCancel(ctx), event.String()+" "+n.ExternalID+" "+n.ID)
	}
	if err != nil {
		a.fail(fmt.Errorf("notification: %w", err))
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusOK)
}

// settle is the event consumer: the consult, then commit 5 settles with
// the postback row, and the postback goes to hop 3.
func (a *arch) settle(ctx context.Context, msg string) error {
	parts := strings.SplitN(msg, " ", 3)
	if len(parts) != 3 {
		return fmt.Errorf("event message %q", msg)
	}
	event, pixID := parts[0], parts[2]
	id, err := uuid.Parse(parts[1])
	if err != nil {
		return err
	}
	var got archNotice
	if err := a.call(ctx, http.MethodGet, a.provider+"/sends/"+pixID, nil, nil, &got); err != nil {
		return fmt.Errorf("consult: %w", err)
	}
	if got.Status != "COMPLETED" || got.ExternalID != id.String() {
		return fmt.Errorf("consult of %s: %+v", pixID, got)
	}
	pb := uuid.New()
	body, _ := json.Marshal(map[string]any{"requestBody": map[string]any{"id": id, "transactionType": "PAYMENT",
		"transactionId": pixID, "status": got.Status, "amount": float64(bareAmount) / 100}})
	var wallet, amount, fee int64
	err = a.inTx(ctx, func(b *pgx.Batch) {
		b.Queue(`UPDATE arch_withdrawals SET status = 'COMPLETED', pix_id = $2, updated_at = now()
			WHERE id = $1 AND status IN ('SENDING', 'SENT') RETURNING wallet_id, amount, fee`, id, pixID)
	}, func(br pgx.BatchResults) error {
		return br.QueryRow().Scan(&wallet, &amount, &fee)
	}, func(b *pgx.Batch) {
		b.Queue(`UPDATE arch_wallets SET reserved = reserved - $2 WHERE id = $1`, wallet, amount+fee)
		b.Queue(`INSERT INTO arch_postings (withdrawal_id, account, amount) VALUES ($1, 'reserved', $2), ($1, 'provider', $3), ($1, 'fees', $4)`,
			id, -(amount + fee), amount, fee)
		b.Queue(`INSERT INTO arch_postbacks (id, withdrawal_id, body, status) VALUES ($1, $2, $3, 'PENDING')`, pb, id, body)
		b.Queue(`INSERT INTO arch_outbox (kind, ref) VALUES ('postback', $1)`, pb)
		b.Queue(`DELETE FROM arch_outbox WHERE kind = 'event' AND ref = $1`, event)
	})
	if errors.Is(err, pgx.ErrNoRows) { // settled already: a repeated event
		_, err = a.pool.Exec(ctx, `DELETE FROM arch_outbox WHERE kind = 'event' AND ref = $1`, event)
		return err
	}
	if err != nil {
		return err
	}
	return a.pbQueue.push(ctx, pb.String()+" "+id.String()+" "+string(body))
}

// deliver is the postback consumer: the signed POST to the receiver, then
// commit 6 records the attempt.
func (a *arch) deliver(ctx context.Context, msg string) error {
	parts := strings.SplitN(msg, " ", 3)
	if len(parts) != 3 {
		return fmt.Errorf("postback message %q", msg)
	}
	pb, id, body := parts[0], parts[1], []byte(parts[2])
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	mac := hmac.New(sha256.New, a.secret)
	mac.Write([]byte(pb + "." + ts + "."))
	mac.Write(body)
	h := http.Header{"Webhook-Id": {pb}, "Webhook-Timestamp": {ts},
		"Webhook-Signature": {"v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil))}}
	start := time.Now()
	postErr := a.call(ctx, http.MethodPost, a.postbacks, body, h, nil)
	latency := time.Since(start)
	code, errText := http.StatusNoContent, ""
	if postErr != nil {
		code, errText = 0, postErr.Error()
	} else if wid, err := uuid.Parse(id); err == nil {
		if ch, ok := a.waiting.Load(wid); ok {
			select {
			case ch.(chan struct{}) <- struct{}{}:
			default:
			}
		}
	}
	b := &pgx.Batch{}
	b.Queue(`BEGIN`)
	b.Queue(`INSERT INTO arch_attempts (postback_id, status_code, latency_us, error) VALUES ($1, $2, $3, nullif($4, ''))`,
		pb, code, latency.Microseconds(), errText)
	if postErr == nil {
		b.Queue(`UPDATE arch_postbacks SET status = 'DELIVERED', delivered_at = now() WHERE id = $1`, pb)
		b.Queue(`DELETE FROM arch_outbox WHERE kind = 'postback' AND ref = $1`, pb)
	}
	b.Queue(`COMMIT`)
	if err := a.pipeline(ctx, b, nil); err != nil {
		return err
	}
	if postErr != nil {
		return fmt.Errorf("postback: %w", postErr)
	}
	a.completed.Add(1)
	return nil
}

// pipeline sends b in one round trip; read, when set, reads its answers
// in order first.
func (a *arch) pipeline(ctx context.Context, b *pgx.Batch, read func(pgx.BatchResults) error) error {
	br := a.pool.SendBatch(ctx, b)
	if read != nil {
		if err := read(br); err != nil {
			_ = br.Close()
			return err
		}
	}
	return br.Close()
}

// call sends a request and wants a 2xx; out, when set, gets the JSON
// answer.
func (a *arch) call(ctx context.Context, method, url string, body []byte, header http.Header, out any) error {
	req, err := http.NewRequestWithContext(ctx, method, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := a.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s %s: %d", method, url, resp.StatusCode)
	}
	if out != nil {
		return json.Unmarshal(raw, out)
	}
	return nil
}

// serveLoopback runs h on a free loopback port and returns its base URL.
func serveLoopback(h http.Handler) (*http.Server, string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, "", err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	return srv, "http://" + ln.Addr().String(), nil
}
