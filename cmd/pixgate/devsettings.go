package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/spf13/cobra"
)

// pixgate dev picks settings of its own (its sandbox as the provider, with
// PixGate's extensions) beside those it was given (moved ports, another
// database), and operator commands run in another terminal need them:
// reconcile run reads the statement through the extensions, provider
// balance asks dev's sandbox, not whatever answers on 9090. So dev keeps
// the settings it runs with in a file beside its demo key while it runs,
// and operator commands take from it each setting their environment leaves
// unset, saying so.

// devSettingsName is the file's name, in the demo key's directory.
const devSettingsName = "dev-settings.json"

// devSettingsFile is where pixgate dev keeps its settings: beside its demo
// key, in the user cache directory or PIXGATE_DEMO_KEY_FILE's directory.
func (c *cli) devSettingsFile() (string, error) {
	key, err := c.demoKeyFile()
	if err != nil {
		return "", err
	}
	return filepath.Join(filepath.Dir(key), devSettingsName), nil
}

// devSettings is the file's content: the settings of the pixgate dev
// running as process PID.
type devSettings struct {
	PID      int               `json:"pid"`
	Settings map[string]string `json:"settings"`
}

// settingsForOperators are the settings pixgate dev runs with that an
// operator command beside it needs: where its database and Redis are,
// where it listens, and its default provider (the sandbox, unless it was
// given another), with the efi sandbox's client certificate. No secret is
// among them but what the URLs hold, as in the environment.
func (c *cli) settingsForOperators() map[string]string {
	s := map[string]string{
		"PIXGATE_DATABASE_URL":        c.cfg.DatabaseURL,
		"PIXGATE_REDIS_URL":           c.cfg.RedisURL,
		settingHTTPAddr:               c.cfg.HTTPAddr,
		settingWorkerAddr:             c.cfg.WorkerAddr,
		settingSandboxAddr:            c.cfg.SandboxAddr,
		settingSandboxTLSAddr:         c.cfg.SandboxTLSAddr,
		"PIXGATE_PROVIDER_KIND":       c.cfg.ProviderKind,
		"PIXGATE_PROVIDER_URL":        c.cfg.ProviderURL,
		"PIXGATE_PROVIDER_EXTENSIONS": strconv.FormatBool(c.cfg.ProviderExtensions),
		"PIXGATE_PROVIDER_CERT_FILE":  c.cfg.ProviderCertFile,
		"PIXGATE_PROVIDER_KEY_FILE":   c.cfg.ProviderKeyFile,
		"PIXGATE_PROVIDER_CA_FILE":    c.cfg.ProviderCAFile,
		"PIXGATE_PROVIDER_PIX_KEY":    c.cfg.ProviderPixKey,
	}
	maps.DeleteFunc(s, func(_, v string) bool { return v == "" })
	return s
}

// keepDevSettings writes the running dev's settings for the operator
// commands beside it, and returns where. forget removes the file when dev
// stops, unless another dev has written its own since. Failing to write
// is worth a warning, not a stop.
func (c *cli) keepDevSettings() (path string, forget func()) {
	path, err := c.devSettingsFile()
	var b []byte
	if err == nil {
		b, _ = json.MarshalIndent(devSettings{PID: os.Getpid(), Settings: c.settingsForOperators()}, "", "  ")
		if err = os.MkdirAll(filepath.Dir(path), 0o700); err == nil {
			err = os.WriteFile(path, append(b, '\n'), 0o600)
		}
	}
	if err != nil {
		c.log.Warn("the settings of pixgate dev could not be kept for the operator commands beside it", "error", err)
		return "", func() {}
	}
	return path, func() {
		if kept, err := os.ReadFile(path); err == nil && bytes.Equal(kept, append(b, '\n')) {
			_ = os.Remove(path)
		}
	}
}

// takesDevSettings says whether cmd is an operator command, which runs
// beside a pixgate dev: not one of the processes (dev, api, worker,
// sandbox, migrate), which run on their own settings alone.
func takesDevSettings(cmd *cobra.Command) bool {
	for cmd.HasParent() && cmd.Parent().HasParent() {
		cmd = cmd.Parent()
	}
	switch cmd.Name() {
	case "dev", "api", "worker", "sandbox", "migrate", "version", "help", "completion":
		return false
	}
	return cmd.HasParent()
}

// useDevSettings takes, from the settings of a running pixgate dev, each
// one the environment leaves unset, and says on stderr which it took.
// Nothing is taken from a dev that no longer runs, nor when
// PIXGATE_DATABASE_URL names another database than dev's: the command is
// then about another PixGate.
func (c *cli) useDevSettings() error {
	path, err := c.devSettingsFile()
	if err != nil {
		return nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var dev devSettings
	if json.Unmarshal(b, &dev) != nil || !processRuns(dev.PID) {
		return nil
	}
	if own, set := c.environ["PIXGATE_DATABASE_URL"]; set && databaseName(own) != databaseName(dev.Settings["PIXGATE_DATABASE_URL"]) {
		return nil
	}
	defaults := map[string]string{}
	for _, v := range configVars() {
		defaults[v.Name] = v.Default
	}
	environ := maps.Clone(c.environ)
	var taken []string
	for _, name := range slices.Sorted(maps.Keys(dev.Settings)) {
		def, known := defaults[name]
		if _, set := c.environ[name]; set || !known || dev.Settings[name] == def {
			continue
		}
		environ[name] = dev.Settings[name]
		taken = append(taken, name)
	}
	if len(taken) == 0 {
		return nil
	}
	cfg, err := loadConfig(environ)
	if err != nil {
		return fmt.Errorf("the settings of the pixgate dev running as process %d (%s): %w", dev.PID, path, err)
	}
	c.cfg, c.environ, c.fromDev = cfg, environ, map[string]bool{}
	shown := make([]string, len(taken))
	for i, name := range taken {
		c.fromDev[name] = true
		shown[i] = name + "=" + maskSetting(name, environ[name])
	}
	fmt.Fprintf(c.stderr, "pixgate: with the settings of the pixgate dev running as process %d (%s): %s; set any of them to override\n",
		dev.PID, path, strings.Join(shown, ", "))
	return nil
}

// processRuns says whether a process with that id is running.
func processRuns(pid int) bool {
	if pid <= 0 {
		return false
	}
	p, err := os.FindProcess(pid)
	return err == nil && p.Signal(syscall.Signal(0)) == nil
}
