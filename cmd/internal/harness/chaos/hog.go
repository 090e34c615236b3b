package chaos

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// The CPU hog keeps the machine's cores oversubscribed: a child process
// of the harness's own binary, started with HogChildArg, spins hogSpinners
// threads at normal priority beside PixGate's processes. The cpu-hog
// scenario runs it for its hold; -hog runs it under every scenario.
//
// It never outlives the harness: the harness stops it when the scenario
// or the run ends, the kernel kills it when the harness's thread that
// started it goes (Pdeathsig), and it exits by itself once its parent is
// no longer the harness (a harness killed, or ended by os.Exit, leaves it
// to init).

// HogChildArg, as the binary's first argument, makes it the hog: the
// spinners, then the parent's pid.
const HogChildArg = "-hog-child"

// hogSpinners is how many threads the hog spins: twice the cores, so that
// the cores are oversubscribed whatever else runs.
func hogSpinners() int { return 2 * runtime.NumCPU() }

// hogWatch is how often the hog looks whether its parent is gone.
const hogWatch = 200 * time.Millisecond

// hog is a running CPU hog.
type hog struct {
	spinners int
	begin    time.Time

	mu     sync.Mutex
	cmd    *exec.Cmd
	exited chan struct{}
}

// startHog starts a hog of spinners threads.
func startHog(spinners int) (*hog, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("the CPU hog: %w", err)
	}
	cmd := exec.Command(exe, HogChildArg, strconv.Itoa(spinners), strconv.Itoa(os.Getpid()))
	// Killed with the harness's thread that starts it: the Go runtime
	// keeps its threads as long as the process lives, but for one a
	// goroutine ends locked to, which the harness never does.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("the CPU hog: %w", err)
	}
	h := &hog{spinners: spinners, begin: time.Now(), cmd: cmd, exited: make(chan struct{})}
	go func() { _ = cmd.Wait(); close(h.exited) }()
	return h, nil
}

// stop kills the hog (if it still runs) and tells what it did: its
// spinners, for how long, and the CPU time it got. A nil hog is nothing.
func (h *hog) stop() string {
	if h == nil {
		return ""
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.cmd == nil {
		return ""
	}
	_ = h.cmd.Process.Kill()
	<-h.exited
	took := time.Since(h.begin)
	cpu := h.cmd.ProcessState.UserTime() + h.cmd.ProcessState.SystemTime()
	h.cmd = nil
	return hogText(h.spinners, took, cpu)
}

// hogText words what a hog did.
func hogText(spinners int, took, cpu time.Duration) string {
	cores := 0.0
	if took > 0 {
		cores = cpu.Seconds() / took.Seconds()
	}
	return fmt.Sprintf("the CPU hog: %d spinning threads (%d cores here) for %s, %.0f CPU-seconds (%.1f cores on average)",
		spinners, runtime.NumCPU(), seconds(took), cpu.Seconds(), cores)
}

// cpu is the CPU time the hog has had so far (from /proc; 0 when it
// cannot be read).
func (h *hog) cpu() time.Duration {
	if h == nil {
		return 0
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.cmd == nil {
		return 0
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", h.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	return statCPU(string(b))
}

// statCPU is the user and system time of a /proc/PID/stat line (in clock
// ticks of 1/100 s, as the kernel shows them to every program).
func statCPU(stat string) time.Duration {
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return 0
	}
	// After the command: state (3), ... utime (14), stime (15).
	f := strings.Fields(stat[i+1:])
	if len(f) < 13 {
		return 0
	}
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0
	}
	return time.Duration(utime+stime) * 10 * time.Millisecond
}

// The cluster's hogs: the run's (-hog), under every scenario, or the
// cpu-hog scenario's, for its hold.

// startHog starts the run's hog, or the scenario's when the run has none.
func (c *cluster) startHog(runWide bool) error {
	c.hogMu.Lock()
	defer c.hogMu.Unlock()
	if c.runHog != nil {
		return nil // the scenario runs under the run's hog already
	}
	h, err := startHog(hogSpinners())
	if err != nil {
		return err
	}
	if runWide {
		c.runHog = h
	} else {
		c.scenarioHog = h
	}
	return nil
}

// stopHog stops the scenario's hog, or the run's when runWide, and tells
// what it did ("" when none ran). A scenario's account is kept for
// hogNote.
func (c *cluster) stopHog(runWide bool) string {
	c.hogMu.Lock()
	defer c.hogMu.Unlock()
	if runWide {
		text := c.runHog.stop()
		c.runHog = nil
		return text
	}
	if text := c.scenarioHog.stop(); text != "" {
		c.scenarioHogText = text
	}
	c.scenarioHog = nil
	return c.scenarioHogText
}

// hogNote tells, after a scenario, what the hog did during it: the
// scenario's own hog's account, or the run's hog's CPU time since
// cpuBefore over the scenario's took ("" when no hog ran).
func (c *cluster) hogNote(cpuBefore, took time.Duration) string {
	c.hogMu.Lock()
	defer c.hogMu.Unlock()
	if text := c.scenarioHogText; text != "" {
		c.scenarioHogText = ""
		return text
	}
	if c.runHog == nil || took <= 0 {
		return ""
	}
	cpu := c.runHog.cpu() - cpuBefore
	return fmt.Sprintf("under the run's CPU hog (-hog): %.0f CPU-seconds of its %d spinning threads in the scenario's %s (%.1f cores on average)",
		cpu.Seconds(), c.runHog.spinners, seconds(took), cpu.Seconds()/took.Seconds())
}

// runHogCPU is the run's hog's CPU time so far (0 without one).
func (c *cluster) runHogCPU() time.Duration {
	c.hogMu.Lock()
	defer c.hogMu.Unlock()
	return c.runHog.cpu()
}

// hogOn and hogOff are the cpu-hog scenario's fault: its own hog for the
// hold, unless the run's hog is on already.
func hogOn(_ context.Context, c *cluster, _ *sandboxClient) error { return c.startHog(false) }

func hogOff(_ context.Context, c *cluster, _ *sandboxClient) error {
	c.stopHog(false)
	return nil
}

// HogChild is the hog's process: args are the spinners and the parent's
// pid. It spins until its parent is gone, then exits.
func HogChild(args []string) int {
	if len(args) != 2 {
		fmt.Fprintln(os.Stderr, "pixgate-chaos: "+HogChildArg+" SPINNERS PARENT_PID")
		return 2
	}
	spinners, err1 := strconv.Atoi(args[0])
	parent, err2 := strconv.Atoi(args[1])
	if err1 != nil || err2 != nil || spinners < 1 {
		fmt.Fprintln(os.Stderr, "pixgate-chaos: "+HogChildArg+" SPINNERS PARENT_PID: want numbers")
		return 2
	}
	runtime.GOMAXPROCS(spinners + 1)
	for range spinners {
		go spin()
	}
	for os.Getppid() == parent {
		time.Sleep(hogWatch)
	}
	return 0
}

// spun counts the spinners' rounds by the million: their work is kept.
var spun atomic.Uint64

// spin burns a thread.
func spin() {
	for i := uint64(1); ; i++ {
		if i%(1<<20) == 0 {
			spun.Add(1)
		}
	}
}
