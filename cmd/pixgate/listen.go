package main

import (
	"errors"
	"fmt"
	"net"
	"syscall"
)

// The settings that name listen addresses.
const (
	settingHTTPAddr       = "PIXGATE_HTTP_ADDR"
	settingAPIMetricsAddr = "PIXGATE_API_METRICS_ADDR"
	settingWorkerAddr     = "PIXGATE_WORKER_ADDR"
	settingSandboxAddr    = "PIXGATE_SANDBOX_ADDR"
	settingSandboxTLSAddr = "PIXGATE_SANDBOX_TLS_ADDR"
)

func (c *cli) listenAddr(setting string) string {
	switch setting {
	case settingHTTPAddr:
		return c.cfg.HTTPAddr
	case settingAPIMetricsAddr:
		return c.cfg.APIMetricsAddr
	case settingWorkerAddr:
		return c.cfg.WorkerAddr
	case settingSandboxAddr:
		return c.cfg.SandboxAddr
	case settingSandboxTLSAddr:
		return c.cfg.SandboxTLSAddr
	}
	panic("listenAddr: unknown setting " + setting)
}

// bind binds the addresses of the given settings before a command touches
// the database or Redis, so a taken port stops it before it creates or
// migrates anything. The components take their listener with listener;
// closeListeners closes those never taken.
func (c *cli) bind(settings ...string) error {
	if c.bound == nil {
		c.bound = map[string]net.Listener{}
	}
	for _, s := range settings {
		ln, err := listenAs(s, c.listenAddr(s))
		if err != nil {
			c.closeListeners()
			return err
		}
		c.bound[s] = ln
	}
	return nil
}

// listener is the listener bound for setting, or a new one.
func (c *cli) listener(setting string) (net.Listener, error) {
	if ln, ok := c.bound[setting]; ok {
		delete(c.bound, setting)
		return ln, nil
	}
	return listenAs(setting, c.listenAddr(setting))
}

func (c *cli) closeListeners() {
	for s, ln := range c.bound {
		ln.Close()
		delete(c.bound, s)
	}
}

// listenAs binds addr, which setting (a variable or a flag) chose; its
// errors name the setting, and for an address in use, the process holding
// it when this machine tells.
func listenAs(setting, addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err == nil {
		return ln, nil
	}
	if errors.Is(err, syscall.EADDRINUSE) {
		holder := ""
		if _, port, perr := net.SplitHostPort(addr); perr == nil {
			if h := portHolder(port); h != "" {
				holder = " by " + h
			}
		}
		return nil, fmt.Errorf("%s=%s: the address is already in use%s; stop that process or set %s to a free address",
			setting, addr, holder, setting)
	}
	return nil, fmt.Errorf("%s=%s: cannot listen: %w", setting, addr, err)
}
