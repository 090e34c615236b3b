package stack

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"time"
)

// Proc is one process that can be started, stopped, killed and started
// again with the same command line. Its output is appended to
// LogDir/Name.log.
type Proc struct {
	Name   string
	Path   string
	Args   []string
	Env    []string // nil: the harness's own environment
	Dir    string
	LogDir string
	// Cred runs the process as another user (Postgres refuses root).
	Cred *syscall.Credential
	// Ready tells when a started process is serving; nil: at once.
	Ready       func() bool
	ReadyWithin time.Duration // default 30 s

	mu     sync.Mutex
	cmd    *exec.Cmd
	exited chan struct{}
}

// Start runs the process and waits until Ready holds. It fails when the
// process exits first, naming its log.
func (p *Proc) Start(ctx context.Context) error {
	log, err := LogFile(p.LogDir, p.Name)
	if err != nil {
		return err
	}
	defer log.Close() // the child has its own copy
	cmd := exec.Command(p.Path, p.Args...)
	cmd.Env, cmd.Dir = p.Env, p.Dir
	cmd.Stdout, cmd.Stderr = log, log
	// Its own process group: an interrupt of the harness does not reach it,
	// the harness stops it in order.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Credential: p.Cred}
	dieWithParent(cmd.SysProcAttr)
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("%s: %w", p.Name, err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	p.mu.Lock()
	p.cmd, p.exited = cmd, exited
	p.mu.Unlock()
	if p.Ready == nil {
		return nil
	}
	within := p.ReadyWithin
	if within == 0 {
		within = 30 * time.Second
	}
	err = WaitFor(ctx, within, func() bool {
		select {
		case <-exited:
			return true
		default:
		}
		return p.Ready()
	})
	select {
	case <-exited:
		return fmt.Errorf("%s exited at start; see %s", p.Name, filepath.Join(p.LogDir, p.Name+".log"))
	default:
	}
	if err != nil {
		return fmt.Errorf("%s did not become ready: %w", p.Name, err)
	}
	return nil
}

// Running reports whether the process was started and has not exited.
func (p *Proc) Running() bool {
	p.mu.Lock()
	exited := p.exited
	p.mu.Unlock()
	if exited == nil {
		return false
	}
	select {
	case <-exited:
		return false
	default:
		return true
	}
}

// Stop sends sig and waits up to grace for the process to exit, then
// kills it. A process not running is left alone.
func (p *Proc) Stop(sig syscall.Signal, grace time.Duration) {
	p.mu.Lock()
	cmd, exited := p.cmd, p.exited
	p.mu.Unlock()
	if cmd == nil || !p.Running() {
		return
	}
	_ = cmd.Process.Signal(sig)
	select {
	case <-exited:
		return
	case <-time.After(grace):
	}
	_ = cmd.Process.Kill()
	<-exited
}

// Kill ends the process with SIGKILL, as a crash would, and waits for it.
func (p *Proc) Kill() { p.Stop(syscall.SIGKILL, time.Minute) }

// Terminate asks for a graceful shutdown (SIGTERM), killing the process if
// it takes longer than 45 s.
func (p *Proc) Terminate() { p.Stop(syscall.SIGTERM, 45*time.Second) }

// Pid is the running process's id, 0 when none.
func (p *Proc) Pid() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd == nil || p.cmd.Process == nil {
		return 0
	}
	return p.cmd.Process.Pid
}
