package main

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/spf13/cobra"
	"golang.org/x/sync/errgroup"

	"github.com/pixgate/pixgate/api"
	"github.com/pixgate/pixgate/worker/postback"
)

func (c *cli) apiCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "api",
		Short: "Serve the HTTP API: /api/v1, /v2, the provider webhook, /openapi.yaml, /docs, /healthz and /readyz",
		Long: `Serve the HTTP API. API processes are stateless: run as many as the load needs
behind a load balancer (set PIXGATE_PROXY_HEADER and PIXGATE_TRUSTED_PROXIES).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := c.requireWebhookToken(); err != nil {
				return err
			}
			c.servesAPI = true
			if err := c.bind(settingHTTPAddr, settingAPIMetricsAddr); err != nil {
				return err
			}
			defer c.closeListeners()
			err := c.runStack(cmd.Context(), func(*stack) error {
				c.log.Info("api listening", "addr", c.cfg.HTTPAddr, "metrics", c.cfg.APIMetricsAddr)
				return nil
			}, c.startAPI, c.startAPIMetrics)
			c.logStopped("api", err)
			return err
		},
	}
}

// startAPIMetrics serves /metrics (and /debug/pprof/ when PIXGATE_PPROF is
// set) on its own listener, off the public port.
func (c *cli) startAPIMetrics(ctx context.Context, g *errgroup.Group, st *stack) error {
	ln, err := c.listener(settingAPIMetricsAddr)
	if err != nil {
		return err
	}
	g.Go(serveHTTP(ctx, c.withPprof(promhttp.HandlerFor(st.registry, promhttp.HandlerOpts{})), ln, nil))
	return nil
}

// groupCommitSize caps the withdrawal creates of one group commit.
const groupCommitSize = 32

// sharedCommitSize caps the calls of one shared commit (storage.ShareCommits).
const sharedCommitSize = 32

// startAPI binds the API's address and adds its server to g.
func (c *cli) startAPI(ctx context.Context, g *errgroup.Group, st *stack) error {
	maxAmount, err := c.cfg.maxAmount()
	if err != nil {
		return err
	}
	ln, err := c.listener(settingHTTPAddr)
	if err != nil {
		return err
	}
	if err := st.db.CacheKeys(ctx, c.cfg.KeyCacheTTL); err != nil {
		c.log.Warn("api keys are read from the database until the key cache listens", "error", err)
	}
	st.db.GroupCommit(ctx, c.cfg.GroupCommit, groupCommitSize)
	st.db.ShareCommits(ctx, c.cfg.SharedCommits, sharedCommitSize)
	srv := api.New(api.Config{
		BodyLimit:             c.cfg.BodyLimit,
		BatchBodyLimit:        c.cfg.BatchBodyLimit,
		ProviderWebhookURL:    c.webhookURL(),
		ProviderWebhookToken:  c.cfg.ProviderWebhookToken,
		MaxAmount:             maxAmount,
		V1RatePerMinute:       c.cfg.V1RatePerMinute,
		TokenTTL:              time.Duration(c.cfg.TokenTTL),
		V2TokenRatePerMinute:  c.cfg.V2TokenRatePerMinute,
		V2RatePerMinute:       c.cfg.V2RatePerMinute,
		AuthFailuresPerMinute: c.cfg.AuthFailuresPerMinute,
		KeyLookupsPerMinute:   c.cfg.KeyLookupsPerMinute,
		AdmissionBacklog:      c.cfg.AdmissionBacklog,
		AdmissionQueueTime:    c.cfg.AdmissionQueueTime,
		AdmissionRetryAfter:   c.cfg.AdmissionRetryAfter,
		AllowHTTPPostbacks:    c.cfg.PostbackAllowHTTP,
		// The workers' delivery policy, checked when a URL is given.
		PostbackURLPolicy: func(ctx context.Context, raw string) error { return postback.CheckURL(ctx, raw, c.postbackPolicy()) },
		ProviderTimeout:   c.cfg.ProviderTimeout + c.cfg.ProviderTimeout/2,
		ProxyHeader:       c.cfg.ProxyHeader,
		TrustedProxies:    c.cfg.TrustedProxies,
	}, api.Deps{
		DB:       st.db,
		Redis:    st.redis,
		Provider: st.provider,
		Logger:   c.log,
		Metrics:  st.registry,
		Ready:    []api.ReadyCheck{{Name: "redis", Check: func(ctx context.Context) error { return st.redis.Ping(ctx).Err() }}},
		Live:     st.db.PoolStarved,
	})
	g.Go(serveFiber(ctx, srv.App(), ln))
	return nil
}
