package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/pixgate/pixgate/storage/storagetest"
)

// Operator commands run beside pixgate dev knew none of the settings it
// chose or was given: reconcile run --provider default was refused for
// want of PIXGATE_PROVIDER_EXTENSIONS, and with dev's ports moved,
// provider list and balance looked at 127.0.0.1:9090. They now take, from
// the file dev keeps beside its demo key while it runs, every setting
// their environment leaves unset, and say so on stderr.
func TestOperatorCommandsBesideDevTakeItsSettings(t *testing.T) {
	s := newDevStack(t)
	keyFile := s.pg.env["PIXGATE_DEMO_KEY_FILE"]
	// Another terminal: no PIXGATE_* but the demo key's place (dev's,
	// when neither sets it) and the suite's bound on connections.
	beside := func(extra ...string) *pixgate {
		env := map[string]string{"PIXGATE_DEMO_KEY_FILE": keyFile, "PIXGATE_DATABASE_MAX_CONNS": s.pg.env["PIXGATE_DATABASE_MAX_CONNS"]}
		for i := 0; i+1 < len(extra); i += 2 {
			env[extra[i]] = extra[i+1]
		}
		return &pixgate{t: t, env: env}
	}
	op := beside()

	var list struct{ Providers []providerView }
	code, out, errs := op.run("provider", "list", "--json")
	if code != 0 || json.Unmarshal([]byte(out), &list) != nil || len(list.Providers) == 0 || list.Providers[0].URL != s.sandbox {
		t.Fatalf("provider list beside dev: exit %d, want the default provider at dev's sandbox %s:\n%s%s", code, s.sandbox, out, errs)
	}
	for _, want := range []string{"with the settings of the pixgate dev running as process " + strconv.Itoa(os.Getpid()),
		filepath.Join(filepath.Dir(keyFile), "dev-settings.json"), "PIXGATE_PROVIDER_EXTENSIONS=true", "PIXGATE_PROVIDER_URL=" + s.sandbox,
		"PIXGATE_HTTP_ADDR=" + strings.TrimPrefix(s.api, "http://"), "PIXGATE_DATABASE_URL=", "set any of them to override"} {
		if !strings.Contains(errs, want) {
			t.Errorf("provider list's stderr lacks %q: %s", want, errs)
		}
	}
	if code, out, errs := op.run("provider", "balance", "default", "--json"); code != 0 || !strings.Contains(out, `"reported"`) {
		t.Errorf("provider balance beside dev: exit %d\n%s%s", code, out, errs)
	}
	if code, out, errs := op.run("reconcile", "run", "--provider", "default", "--date", "today", "--json"); code != 0 {
		t.Errorf("reconcile run --provider default beside dev: exit %d\n%s%s", code, out, errs)
	}
	if code, out, errs := op.run("integrator", "list", "--json"); code != 0 || !strings.Contains(out, "e2e@loja.example") {
		t.Errorf("integrator list beside dev does not list dev's integrators: exit %d\n%s%s", code, out, errs)
	}
	var env struct {
		Settings []settingView `json:"settings"`
	}
	op.json(&env, "env")
	for _, v := range env.Settings {
		if v.Name == "PIXGATE_PROVIDER_URL" && (v.Value != s.sandbox || v.From != "pixgate dev") {
			t.Errorf("pixgate env beside dev: %+v", v)
		}
	}

	// What the environment sets wins.
	code, out, errs = beside("PIXGATE_PROVIDER_EXTENSIONS", "false").run("reconcile", "run", "--provider", "default", "--date", "today")
	if code == 0 || !strings.Contains(errs, "only with PIXGATE_PROVIDER_EXTENSIONS=true") || strings.Contains(errs, "PIXGATE_PROVIDER_EXTENSIONS=true,") {
		t.Errorf("reconcile run with PIXGATE_PROVIDER_EXTENSIONS=false set: exit %d\n%s%s", code, out, errs)
	}
	// Another database is another PixGate: nothing of dev's is taken.
	other := beside("PIXGATE_DATABASE_URL", storagetest.NewDatabaseURL(t))
	if code, out, errs := other.run("provider", "list", "--json"); code != 0 || strings.Contains(out, s.sandbox) || errs != "" {
		t.Errorf("provider list on another database took dev's settings: exit %d\n%s%s", code, out, errs)
	}
	// Once dev stops, its settings go with it.
	s.stop()
	if _, err := os.Stat(filepath.Join(filepath.Dir(keyFile), "dev-settings.json")); !os.IsNotExist(err) {
		t.Errorf("dev's settings outlived it: %v", err)
	}
	code, out, errs = beside("PIXGATE_DATABASE_URL", s.pg.env["PIXGATE_DATABASE_URL"]).run("provider", "list", "--json")
	if code != 0 || strings.Contains(out, s.sandbox) || errs != "" {
		t.Errorf("provider list after dev stopped: exit %d\n%s%s", code, out, errs)
	}
}

// The settings of a pixgate dev that no longer runs (killed, its machine
// restarted) are not taken.
func TestOperatorCommandsPassOverTheSettingsOfADevGone(t *testing.T) {
	p := newPixgate(t)
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Skip(err)
	}
	b, _ := json.Marshal(devSettings{PID: gone.Process.Pid, Settings: map[string]string{
		"PIXGATE_PROVIDER_URL": "http://127.0.0.1:1", "PIXGATE_PROVIDER_EXTENSIONS": "true"}})
	if err := os.WriteFile(filepath.Join(filepath.Dir(p.env["PIXGATE_DEMO_KEY_FILE"]), "dev-settings.json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
	var list struct{ Providers []providerView }
	code, out, errs := p.run("provider", "list", "--json")
	if code != 0 || json.Unmarshal([]byte(out), &list) != nil || list.Providers[0].URL != "http://127.0.0.1:9090" || errs != "" {
		t.Fatalf("provider list with a gone dev's settings: exit %d\n%s%s", code, out, errs)
	}
}
