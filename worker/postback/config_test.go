package postback

import (
	"testing"
	"time"
)

func TestDelay(t *testing.T) {
	cfg := Config{}.WithDefaults()
	nominal := func(n int) time.Duration {
		d := cfg.InitialInterval << (n - 1)
		if n > 20 || d > cfg.MaxInterval {
			return cfg.MaxInterval
		}
		return d
	}
	for _, n := range []int{1, 2, 3, 5, 8, 12, 13, 20, 40, 1000} {
		for range 50 {
			d, want := Delay(cfg, n), nominal(n)
			lo, hi := time.Duration(float64(want)*(1-jitter)), time.Duration(float64(want)*(1+jitter))
			if d < lo || d > hi {
				t.Fatalf("Delay(%d) = %v, want within [%v, %v]", n, d, lo, hi)
			}
		}
	}
	if d := Delay(Config{InitialInterval: 10 * time.Millisecond, MaxInterval: 40 * time.Millisecond}, 10); d > 50*time.Millisecond {
		t.Fatalf("MaxInterval not honoured: %v", d)
	}
}

// TestScheduleFitsRetries keeps the worker's retry budget honest: even with
// every delay at its shortest, the attempts needed to cover MaxAge stay
// within QueueMaxRetry, so the queue never gives up before PixGate does.
func TestScheduleFitsRetries(t *testing.T) {
	cfg := Config{}.WithDefaults()
	var elapsed time.Duration
	n := 0
	for elapsed < cfg.MaxAge {
		n++
		d := cfg.InitialInterval << (n - 1)
		if n > 20 || d > cfg.MaxInterval {
			d = cfg.MaxInterval
		}
		elapsed += time.Duration(float64(d) * (1 - jitter))
	}
	t.Logf("%d retries cover %v at the shortest delays", n, cfg.MaxAge)
	if n > QueueMaxRetry {
		t.Fatalf("%d retries needed, QueueMaxRetry is %d", n, QueueMaxRetry)
	}
}
