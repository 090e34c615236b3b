package main

import (
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestTokenSettings(t *testing.T) {
	c, err := loadConfig(map[string]string{})
	if err != nil {
		t.Fatal(err)
	}
	if time.Duration(c.TokenTTL) != time.Hour || c.V2TokenRatePerMinute != 20 || c.V2RatePerMinute != 600 {
		t.Fatalf("defaults: ttl %v, token route %d/min, v2 %d/min", c.TokenTTL, c.V2TokenRatePerMinute, c.V2RatePerMinute)
	}
	c, err = loadConfig(map[string]string{"PIXGATE_TOKEN_TTL": "900", "PIXGATE_V2_TOKEN_RATE_PER_MINUTE": "5", "PIXGATE_V2_RATE_PER_MINUTE": "-1"})
	if err != nil || time.Duration(c.TokenTTL) != 15*time.Minute || c.V2TokenRatePerMinute != 5 || c.V2RatePerMinute != -1 {
		t.Fatalf("set: %+v, %v", c, err)
	}
	if c, err := loadConfig(map[string]string{"PIXGATE_TOKEN_TTL": "2h"}); err != nil || time.Duration(c.TokenTTL) != 2*time.Hour {
		t.Fatalf("PIXGATE_TOKEN_TTL=2h: %v, %v", time.Duration(c.TokenTTL), err)
	}
	for _, bad := range []string{"0", "0s", "-1h", "-5", "1500ms", "an hour", "1e3"} {
		if _, err := loadConfig(map[string]string{"PIXGATE_TOKEN_TTL": bad}); err == nil || !strings.Contains(err.Error(), "PIXGATE_TOKEN_TTL") && !strings.Contains(err.Error(), "TokenTTL") {
			t.Errorf("PIXGATE_TOKEN_TTL=%s: %v", bad, err)
		}
	}
}

// Configuration errors name the variable to fix, never a Go field, and an
// unknown log level or format is refused rather than quietly replaced.
func TestConfigurationErrorsNameTheVariable(t *testing.T) {
	tests := []struct{ name, value, want string }{
		{"PIXGATE_POSTBACK_TIMEOUT", "ten", `PIXGATE_POSTBACK_TIMEOUT: "ten" is not a duration`},
		{"PIXGATE_V1_RATE_PER_MINUTE", "lots", `PIXGATE_V1_RATE_PER_MINUTE: "lots" is not a whole number`},
		{"PIXGATE_POSTBACK_ALLOW_HTTP", "yes please", `PIXGATE_POSTBACK_ALLOW_HTTP: "yes please" is not true or false`},
		{"PIXGATE_LOG_LEVEL", "verbose", `PIXGATE_LOG_LEVEL: "verbose" is not one of debug, info, warn, error`},
		{"PIXGATE_LOG_FORMAT", "xml", `PIXGATE_LOG_FORMAT: "xml" is not one of json, text`},
		{"PIXGATE_MAX_AMOUNT", "1.234", `PIXGATE_MAX_AMOUNT: `},
		{"PIXGATE_TOKEN_TTL", "an hour", `PIXGATE_TOKEN_TTL: "an hour" is neither a number of seconds nor a duration`},
		{"PIXGATE_TOKEN_TTL", "0", `PIXGATE_TOKEN_TTL: must be a whole number of seconds`},
		{"PIXGATE_SANDBOX_STORE", "disk", `PIXGATE_SANDBOX_STORE: "disk" is not one of postgres, memory`},
		{"PIXGATE_DATABASE_ACQUIRE_TIMEOUT", "0s", `PIXGATE_DATABASE_ACQUIRE_TIMEOUT: must be above zero`},
		{"PIXGATE_DATABASE_STARVED_AFTER", "0s", `PIXGATE_DATABASE_STARVED_AFTER: must be above zero`},
		{"PIXGATE_PROVIDER_CREATE_DEADLINE", "0s", `PIXGATE_PROVIDER_CREATE_DEADLINE: must be above zero`},
		{"PIXGATE_PROVIDER_HEDGE_AFTER", "-1s", `PIXGATE_PROVIDER_HEDGE_AFTER: must be above zero`},
		{"PIXGATE_PROVIDER_HEDGE_ATTEMPTS", "0", `PIXGATE_PROVIDER_HEDGE_ATTEMPTS: must be at least 1`},
		{"PIXGATE_TRUSTED_PROXIES", "10.0.0.0/8,proxy.internal", `PIXGATE_TRUSTED_PROXIES: "proxy.internal" is neither an IP address nor a CIDR prefix`},
	}
	for _, tt := range tests {
		p := &pixgate{t: t, env: map[string]string{tt.name: tt.value}}
		code, _, errs := p.run("env")
		if code == 0 || !strings.Contains(errs, tt.want) || strings.Contains(errs, "field") {
			t.Errorf("%s=%q: exit %d, stderr %q; want %q", tt.name, tt.value, code, errs, tt.want)
		}
	}
	p := &pixgate{t: t, env: map[string]string{"PIXGATE_LOG_LEVEL": "WARN", "PIXGATE_LOG_FORMAT": "Text", "PIXGATE_SANDBOX_STORE": "Memory"}}
	if code, _, errs := p.run("env"); code != 0 {
		t.Fatalf("known level, format and sandbox store in capitals refused: %s", errs)
	}
}

// With Redis down, a service command prints one clean error naming the
// setting, not go-redis's raw pool lines (which it writes to the process's
// standard error on its own, hence the file-descriptor capture).
func TestRedisDownIsOneCleanError(t *testing.T) {
	p := newPixgate(t)
	p.env["PIXGATE_REDIS_URL"] = "redis://127.0.0.1:1/0"
	p.env["PIXGATE_PROVIDER_WEBHOOK_TOKEN"] = "config-test-webhook-token-0123456789"
	p.env["PIXGATE_HTTP_ADDR"] = "127.0.0.1:0"
	p.env["PIXGATE_API_METRICS_ADDR"] = "127.0.0.1:0"
	var code int
	var errs string
	raw := captureFD2(t, func() { code, _, errs = p.run("api") })
	if code == 0 || !strings.Contains(errs, "cannot reach Redis at 127.0.0.1:1 (PIXGATE_REDIS_URL)") {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	if strings.Contains(raw, "pool") {
		t.Fatalf("go-redis wrote to the process's standard error:\n%s", raw)
	}
}

// captureFD2 runs fn with file descriptor 2 redirected to a file and returns
// what was written there.
func captureFD2(t *testing.T, fn func()) string {
	t.Helper()
	f, err := os.CreateTemp(t.TempDir(), "stderr")
	if err != nil {
		t.Fatal(err)
	}
	saved, err := syscall.Dup(2)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Dup2(int(f.Fd()), 2); err != nil {
		t.Fatal(err)
	}
	fn()
	_ = syscall.Dup2(saved, 2)
	_ = syscall.Close(saved)
	b, _ := os.ReadFile(f.Name())
	return string(b)
}

// A proxy header without trusted proxies would be believed from every
// client (an allowlisted key answered anyone naming its address in
// X-Forwarded-For): every command refuses it, naming both variables.
func TestProxyHeaderWithoutTrustedProxiesIsRefused(t *testing.T) {
	for _, env := range []map[string]string{
		{"PIXGATE_PROXY_HEADER": "X-Forwarded-For"},
		{"PIXGATE_PROXY_HEADER": "X-Real-IP", "PIXGATE_TRUSTED_PROXIES": " , "},
	} {
		p := &pixgate{t: t, env: env}
		code, _, errs := p.run("env")
		if code == 0 || !strings.Contains(errs, "PIXGATE_PROXY_HEADER") || !strings.Contains(errs, "PIXGATE_TRUSTED_PROXIES") {
			t.Errorf("%v: exit %d, stderr %q; want a refusal naming both variables", env, code, errs)
		}
	}
	p := &pixgate{t: t, env: map[string]string{"PIXGATE_PROXY_HEADER": "X-Real-IP", "PIXGATE_TRUSTED_PROXIES": "10.0.0.0/8,192.0.2.1"}}
	if code, _, errs := p.run("env"); code != 0 {
		t.Fatalf("header with trusted proxies refused: %s", errs)
	}
}
