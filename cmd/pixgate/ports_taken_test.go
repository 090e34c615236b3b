package main

import (
	"fmt"
	"net"
	"os"
	"strings"
	"testing"

	"github.com/pixgate/pixgate/storage/storagetest"
)

// With several of the addresses pixgate dev needs taken, only the first
// was named: the user freed it, ran again, and met the next. One message
// now names every taken address, its setting and its holder.
func TestEveryTakenPortIsNamedInOneMessage(t *testing.T) {
	taken := make([]net.Listener, 3)
	for i := range taken {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		taken[i] = ln
	}
	name := storagetest.NewDatabaseName(t)
	env := map[string]string{
		"PIXGATE_DATABASE_URL":           dbURL(t, name),
		"PIXGATE_REDIS_URL":              "redis://127.0.0.1:1/0",
		"PIXGATE_PROVIDER_WEBHOOK_TOKEN": "port-test-webhook-token-0123456789abcdef",
		"PIXGATE_DEMO_KEY_FILE":          t.TempDir() + "/demo-key.json",
		"PIXGATE_SANDBOX_ADDR":           taken[0].Addr().String(),
		"PIXGATE_HTTP_ADDR":              taken[1].Addr().String(),
		"PIXGATE_WORKER_ADDR":            taken[2].Addr().String(),
	}
	code, _, errs := (&pixgate{t: t, env: env}).run("dev")
	holder := fmt.Sprintf("(pid %d)", os.Getpid())
	want := []string{"these addresses are already in use:"}
	for i, s := range []string{"PIXGATE_SANDBOX_ADDR", "PIXGATE_HTTP_ADDR", "PIXGATE_WORKER_ADDR"} {
		want = append(want, "  "+s+"="+taken[i].Addr().String()+" (by ")
	}
	want = append(want, "stop those processes or set PIXGATE_SANDBOX_ADDR, PIXGATE_HTTP_ADDR and PIXGATE_WORKER_ADDR to free addresses")
	for _, w := range want {
		if !strings.Contains(errs, w) {
			t.Errorf("stderr lacks %q:\n%s", w, errs)
		}
	}
	if n := strings.Count(errs, holder); n != 3 {
		t.Errorf("the holder %s named %d times, not 3:\n%s", holder, n, errs)
	}
	if code == 0 {
		t.Error("pixgate dev exited 0")
	}
	if databaseExists(t, name) {
		t.Error("pixgate dev created the database before finding its addresses taken")
	}
}

// listenAll binds every address or none: those it bound before meeting a
// taken one are free again afterwards.
func TestListenAllReleasesWhatItBoundWhenOneIsTaken(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	free, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	freeAddr := free.Addr().String()
	free.Close()
	_, err = listenAll(listenSpec{"A", freeAddr}, listenSpec{"B", taken.Addr().String()})
	if err == nil || !strings.Contains(err.Error(), "B="+taken.Addr().String()+": the address is already in use") {
		t.Fatalf("listenAll: %v", err)
	}
	again, err := net.Listen("tcp", freeAddr)
	if err != nil {
		t.Fatalf("%s still bound after listenAll failed: %v", freeAddr, err)
	}
	again.Close()
}
