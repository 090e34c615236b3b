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

// A token long enough but too regular to be a secret (32 × "a", "abab…")
// was accepted; api and worker refuse it, saying how to make one, and
// never show it. pixgate env --generate-webhook-token makes one.
func TestRegularWebhookTokenRefused(t *testing.T) {
	rdb := storagetest.NewRedis(t)
	env := map[string]string{
		"PIXGATE_DATABASE_URL":     storagetest.NewDatabaseURL(t),
		"PIXGATE_REDIS_URL":        fmt.Sprintf("redis://%s/%d", rdb.Addr, rdb.DB),
		"PIXGATE_HTTP_ADDR":        "127.0.0.1:0",
		"PIXGATE_API_METRICS_ADDR": "127.0.0.1:0",
		"PIXGATE_WORKER_ADDR":      "127.0.0.1:0",
	}
	for _, token := range []string{strings.Repeat("a", 32), strings.Repeat("ab", 24), strings.Repeat("0123", 8)} {
		env["PIXGATE_PROVIDER_WEBHOOK_TOKEN"] = token
		for _, cmd := range []string{"api", "worker"} {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			var out, errs bytes.Buffer
			code := run(ctx, []string{cmd}, env, &out, &errs)
			cancel()
			if code == 0 || !strings.Contains(errs.String(), "--generate-webhook-token") || strings.Contains(errs.String(), token) {
				t.Errorf("pixgate %s with token %.8q…: exit %d, stderr %q", cmd, token, code, errs.String())
			}
		}
	}

	p := &pixgate{t: t, env: map[string]string{}}
	seen := map[string]bool{}
	for range 3 {
		code, out, errs := p.run("env", "--generate-webhook-token")
		token := strings.TrimSpace(out)
		if code != 0 || len(token) != 43 || seen[token] || strings.ContainsAny(token, "/+=") {
			t.Fatalf("env --generate-webhook-token: exit %d, %q %s", code, out, errs)
		}
		seen[token] = true
		if err := checkWebhookTokenEntropy(token); err != nil {
			t.Fatalf("a generated token refused: %v", err)
		}
	}
}

// The measure refuses placeholders and short patterns, and passes random
// tokens of every usual alphabet and the suite's own.
func TestWebhookTokenBits(t *testing.T) {
	for token, ok := range map[string]bool{
		strings.Repeat("a", 32):                     false,
		strings.Repeat("ab", 16):                    false,
		strings.Repeat("abcd", 8):                   false,
		"00000000000000000000000000000001":          false,
		"3f9a0c7e51b2d84a6e0f19c3b7d25a8e":          true, // openssl rand -hex 16
		"shutdown-test-webhook-token-0123456789":    true,
		"corpus-webhook-token-0123456789abcdef":     true,
		"CHANGE-ME-to-32-or-more-random-characters": false, // deploy/k8s's placeholder
	} {
		if got := checkWebhookTokenEntropy(token) == nil; got != ok {
			t.Errorf("%q: accepted %v (%.0f bits), want %v", token, got, characterBits(token), ok)
		}
	}
}
