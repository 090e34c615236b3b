package main

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pixgate/pixgate/storage/storagetest"
)

// api and worker refuse to start with a webhook token that is short enough
// to guess: the token is all that keeps others from posting notifications.
func TestShortWebhookTokenRefused(t *testing.T) {
	rdb := storagetest.NewRedis(t)
	env := map[string]string{
		"PIXGATE_DATABASE_URL":           storagetest.NewDatabaseURL(t),
		"PIXGATE_REDIS_URL":              fmt.Sprintf("redis://%s/%d", rdb.Addr, rdb.DB),
		"PIXGATE_HTTP_ADDR":              "127.0.0.1:0",
		"PIXGATE_API_METRICS_ADDR":       "127.0.0.1:0",
		"PIXGATE_WORKER_ADDR":            "127.0.0.1:0",
		"PIXGATE_PROVIDER_WEBHOOK_TOKEN": strings.Repeat("x", 31),
	}
	for _, cmd := range []string{"api", "worker"} {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		var out, errs bytes.Buffer
		code := run(ctx, []string{cmd}, env, &out, &errs)
		cancel()
		if code == 0 || !strings.Contains(errs.String(), "at least 32") {
			t.Errorf("pixgate %s with a 31-character token: exit %d, stderr %q", cmd, code, errs.String())
		}
	}
}
