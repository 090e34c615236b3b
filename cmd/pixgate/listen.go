package main

import (
	"errors"
	"fmt"
	"net"
	"strings"
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
// migrates anything; when several are taken, the error names them all.
// The components take their listener with listener; closeListeners closes
// those never taken.
func (c *cli) bind(settings ...string) error {
	if c.bound == nil {
		c.bound = map[string]net.Listener{}
	}
	specs := make([]listenSpec, len(settings))
	for i, s := range settings {
		specs[i] = listenSpec{setting: s, addr: c.listenAddr(s)}
	}
	lns, err := listenAll(specs...)
	if err != nil {
		c.closeListeners()
		return err
	}
	for i, s := range settings {
		c.bound[s] = lns[i]
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

// listenSpec is an address to bind and the setting (a variable or a
// flag) that chose it.
type listenSpec struct{ setting, addr string }

// listenAll binds every address, or none: when one cannot be bound the
// others are closed, and the error names each that failed, so that a user
// whose ports are taken learns of them all at once.
func listenAll(specs ...listenSpec) ([]net.Listener, error) {
	var (
		lns    []net.Listener
		inUse  []*addrInUseError
		others []error
	)
	for _, sp := range specs {
		ln, err := listenAs(sp.setting, sp.addr)
		var iu *addrInUseError
		switch {
		case err == nil:
			lns = append(lns, ln)
		case errors.As(err, &iu):
			inUse = append(inUse, iu)
		default:
			others = append(others, err)
		}
	}
	if len(inUse) == 0 && len(others) == 0 {
		return lns, nil
	}
	for _, ln := range lns {
		ln.Close()
	}
	if len(inUse) > 1 {
		others = append([]error{addrsInUse(inUse)}, others...)
	} else if len(inUse) == 1 {
		others = append([]error{inUse[0]}, others...)
	}
	return nil, errors.Join(others...)
}

// addrInUseError is an address another process listens on.
type addrInUseError struct {
	setting, addr string
	holder        string // "pixgate (pid 42)", or "" where this machine does not tell
}

func (e *addrInUseError) Error() string {
	by := ""
	if e.holder != "" {
		by = " by " + e.holder
	}
	return fmt.Sprintf("%s=%s: the address is already in use%s; stop that process or set %s to a free address",
		e.setting, e.addr, by, e.setting)
}

// addrsInUse is one message for several taken addresses.
func addrsInUse(taken []*addrInUseError) error {
	var b strings.Builder
	settings := make([]string, len(taken))
	b.WriteString("these addresses are already in use:\n")
	for i, e := range taken {
		settings[i] = e.setting
		fmt.Fprintf(&b, "  %s=%s", e.setting, e.addr)
		if e.holder != "" {
			fmt.Fprintf(&b, " (by %s)", e.holder)
		}
		b.WriteString("\n")
	}
	last := len(settings) - 1
	fmt.Fprintf(&b, "stop those processes or set %s and %s to free addresses", strings.Join(settings[:last], ", "), settings[last])
	return errors.New(b.String())
}

// listenAs binds addr, which setting (a variable or a flag) chose; its
// errors name the setting, and for an address in use (*addrInUseError),
// the process holding it when this machine tells.
func listenAs(setting, addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err == nil {
		return ln, nil
	}
	if errors.Is(err, syscall.EADDRINUSE) {
		e := &addrInUseError{setting: setting, addr: addr}
		if _, port, perr := net.SplitHostPort(addr); perr == nil {
			e.holder = portHolder(port)
		}
		return nil, e
	}
	return nil, fmt.Errorf("%s=%s: cannot listen: %w", setting, addr, err)
}
