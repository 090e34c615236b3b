package chaos

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestMain lets the test binary be the hog, as the harness's binary is.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == HogChildArg {
		os.Exit(HogChild(os.Args[2:]))
	}
	os.Exit(m.Run())
}

// gone tells whether process pid has ended (a zombie no parent reaped
// has).
func gone(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || strings.HasPrefix(strings.TrimSpace(s[i+1:]), "Z")
}

func waitGone(t *testing.T, pid int, within time.Duration) {
	t.Helper()
	for deadline := time.Now().Add(within); !gone(pid); {
		if time.Now().After(deadline) {
			t.Fatalf("the hog (pid %d) still runs %s later", pid, within)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// The hog spins while it runs, and stop ends it and tells its CPU time.
func TestHogSpinsUntilStopped(t *testing.T) {
	h, err := startHog(1)
	if err != nil {
		t.Fatal(err)
	}
	pid := h.cmd.Process.Pid
	t.Cleanup(func() { _ = h.stop() })
	for deadline := time.Now().Add(10 * time.Second); h.cpu() == 0; {
		if time.Now().After(deadline) {
			t.Fatal("the hog had no CPU time in 10 s")
		}
		time.Sleep(50 * time.Millisecond)
	}
	text := h.stop()
	if !strings.HasPrefix(text, "the CPU hog: 1 spinning threads") || !strings.Contains(text, "CPU-seconds") {
		t.Fatalf("stop told %q", text)
	}
	waitGone(t, pid, time.Second)
	if h.stop() != "" || h.cpu() != 0 {
		t.Fatal("a stopped hog tells something again")
	}
}

// A hog whose parent is gone ends by itself: a harness killed (SIGKILL),
// or ended by os.Exit, leaves no hog behind. Here its parent is a shell
// that starts it, says its pid, waits a moment and exits.
func TestHogEndsWhenItsParentIsGone(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	sh := exec.Command("sh", "-c", `"$0" `+HogChildArg+` 1 $$ >/dev/null 2>&1 & echo $!; sleep 1`, exe)
	stdout, err := sh.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := sh.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		t.Fatalf("the shell said %q", line)
	}
	time.Sleep(300 * time.Millisecond)
	if gone(pid) {
		t.Fatal("the hog ended while its parent lived")
	}
	if err := sh.Wait(); err != nil {
		t.Fatal(err)
	}
	waitGone(t, pid, 5*time.Second)
}

func TestHogChildRefusesBadArguments(t *testing.T) {
	for _, args := range [][]string{nil, {"2"}, {"x", "1"}, {"0", "1"}} {
		if code := HogChild(args); code != 2 {
			t.Errorf("%q: exit %d", args, code)
		}
	}
}

func TestStatCPU(t *testing.T) {
	// The command may hold spaces and parentheses.
	stat := "4242 (pixgate (chaos) x) R 1 4242 4242 0 -1 4194304 120 0 0 0 250 37 0 0 20 0 5 0 123 4567 89"
	if got := statCPU(stat); got != 2870*time.Millisecond {
		t.Fatalf("cpu %v", got)
	}
	if statCPU("garbage") != 0 || statCPU("1 (x) R 1") != 0 {
		t.Fatal("a line it cannot read gives a CPU time")
	}
}

func TestHogText(t *testing.T) {
	got := hogText(4, time.Minute, 90*time.Second)
	if !strings.Contains(got, "4 spinning threads") || !strings.Contains(got, "for 60 s, 90 CPU-seconds (1.5 cores on average)") {
		t.Fatalf("%q", got)
	}
}
