package stack

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A server the harness started ends when the harness is killed outright
// (SIGKILL, the OOM killer): left running it would hold its database
// connections, and the next run would find Postgres full.
func TestChildEndsWhenTheHarnessIsKilled(t *testing.T) {
	if os.Getenv("STACK_TEST_HARNESS") == "1" {
		harness()
		return
	}
	parent := exec.Command(os.Args[0], "-test.run=^TestChildEndsWhenTheHarnessIsKilled$")
	parent.Env = append(os.Environ(), "STACK_TEST_HARNESS=1")
	out, err := parent.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	child, perr := strconv.Atoi(strings.TrimSpace(line))
	if err != nil || perr != nil {
		_ = parent.Process.Kill()
		t.Fatalf("the harness said %q (%v)", line, err)
	}
	_ = parent.Process.Kill()
	_ = parent.Wait()
	deadline := time.Now().Add(5 * time.Second)
	for alive(child) {
		if time.Now().After(deadline) {
			_ = syscall.Kill(child, syscall.SIGKILL)
			t.Fatalf("the child %d outlived its harness", child)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// harness starts a long sleep as a Proc, says its pid, and waits.
func harness() {
	p := &Proc{Name: "sleeper", Path: "sleep", Args: []string{"60"}, LogDir: os.TempDir()}
	if err := p.Start(context.Background()); err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	fmt.Println(p.Pid())
	time.Sleep(time.Minute)
	os.Exit(0)
}

// alive: the process exists and is not a zombie.
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}
