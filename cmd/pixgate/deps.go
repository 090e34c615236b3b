package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/hibiken/asynq"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/redis/go-redis/v9"

	"github.com/pixgate/pixgate/providerclient"
)

// openRedis connects to PIXGATE_REDIS_URL and checks that it answers.
func (c *cli) openRedis(ctx context.Context) (*redis.Client, error) {
	opts, err := redis.ParseURL(c.cfg.RedisURL)
	if err != nil {
		return nil, fmt.Errorf("PIXGATE_REDIS_URL: %w", err)
	}
	rdb := redis.NewClient(opts)
	if err := rdb.Ping(ctx).Err(); err != nil {
		rdb.Close()
		return nil, fmt.Errorf("cannot reach Redis at %s: %w", opts.Addr, err)
	}
	return rdb, nil
}

// redisConnOpt is the queue connection for asynqmon, which builds its own.
func (c *cli) redisConnOpt() (asynq.RedisConnOpt, error) {
	return asynq.ParseRedisURI(c.cfg.RedisURL)
}

// newProvider builds the process's one provider client: API handlers and
// workers share its token cache and its circuit breaker.
func (c *cli) newProvider(reg prometheus.Registerer) providerclient.Client {
	breaker := prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "pixgate_provider_breaker_state", Help: "The provider circuit breaker: 0 closed, 1 half-open, 2 open.",
	})
	reg.MustRegister(breaker)
	states := map[string]float64{"closed": 0, "half-open": 1, "open": 2}
	return providerclient.New(providerclient.Config{
		BaseURL:      c.cfg.ProviderURL,
		ClientID:     c.cfg.ProviderClientID,
		ClientSecret: c.cfg.ProviderClientSecret,
		Timeout:      c.cfg.ProviderTimeout,
		Metrics:      reg,
		OnBreakerStateChange: func(from, to string) {
			breaker.Set(states[to])
			c.log.Warn("provider circuit breaker changed state", "from", from, "to", to)
		},
	})
}

// webhookURL is where the provider sends its notifications.
func (c *cli) webhookURL() string {
	return strings.TrimRight(c.cfg.PublicBaseURL, "/") + "/webhooks/provider/" + c.cfg.ProviderWebhookToken
}

func (c *cli) requireWebhookToken() error {
	if c.cfg.ProviderWebhookToken == "" {
		return fmt.Errorf("PIXGATE_PROVIDER_WEBHOOK_TOKEN must be set: it is the secret path the provider posts notifications to")
	}
	return nil
}

// newRegistry is the process's Prometheus registry, with Go and process
// collectors.
func newRegistry() *prometheus.Registry {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return reg
}
