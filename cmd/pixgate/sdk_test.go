package main

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/pixgate/pixgate/storage/storagetest"
)

// The Go SDK (api/sdk, a module of its own that ./... does not reach) runs
// its whole suite here, its unit tests and its tests against this
// pixgate dev: v1 and v2 flows with exact amounts, external_ids it makes
// itself, one access token for every v2 call, verified postbacks, a 503
// retried with the same external_id, a 429 waited out.
func TestGoSDK(t *testing.T) {
	storagetest.Parallel(t, devStackConns)
	const v1Rate = 120 // small enough for the SDK's test to meet a 429
	s := newDevStack(t, "PIXGATE_V1_RATE_PER_MINUTE", fmt.Sprint(v1Rate))
	goCmd := needCommand(t, "go")
	var in struct {
		ID            int64
		Token         string `json:"token"`
		WebhookSecret string `json:"webhook_secret"`
	}
	s.pg.json(&in, "integrator", "create", "--name", "Loja SDK", "--email", "sdk@loja.example",
		"--cashin-fee", "percent:1.5", "--cashout-fee", "fixed:0.50")
	s.pg.json(&struct{}{}, "wallet", "credit", "--integrator", fmt.Sprint(in.ID), "--amount", "197143.76", "--reason", "sdk test")
	env := append([]string{
		"PIXGATE_SDK_TEST_URL=" + s.api,
		"PIXGATE_SDK_TEST_SANDBOX_URL=" + s.sandbox,
		"PIXGATE_SDK_TEST_KEY=" + in.Token,
		"PIXGATE_SDK_TEST_WEBHOOK_SECRET=" + in.WebhookSecret,
		fmt.Sprintf("PIXGATE_SDK_TEST_V1_RATE=%d", v1Rate),
	}, goEnv...)
	dir := filepath.Join(repoRoot(t), "api", "sdk")
	runTool(t, dir, env, goCmd, "vet", "./...")
	out := runTool(t, dir, env, goCmd, "test", "-race", "-count=1", "-v", "./...")
	t.Log(out)
}
