package stack

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

// Postgres is a Postgres cluster of its own: initdb in a temporary
// directory, the server on a free loopback port with trust authentication
// for the user postgres. Run as root, it runs initdb and the server as the
// system user postgres (initdb refuses root), in a directory that user owns.
type Postgres struct {
	Addr string // host:port
	dir  string
	proc *Proc
}

// StartPostgres creates and starts the cluster; logs go to logDir/name.log.
func StartPostgres(ctx context.Context, logDir, name string) (*Postgres, error) {
	bin, err := postgresBin()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "pixgate-pg-")
	if err != nil {
		return nil, err
	}
	pg := &Postgres{dir: dir}
	cred, err := postgresCredential(dir)
	if err != nil {
		pg.Close()
		return nil, err
	}
	data := filepath.Join(dir, "data")
	initdb := exec.CommandContext(ctx, filepath.Join(bin, "initdb"), "-D", data, "-U", "postgres", "--auth=trust",
		"-E", "UTF8", "--locale=C", "--no-sync", "--no-instructions")
	initdb.Dir = dir
	initdb.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	if out, err := initdb.CombinedOutput(); err != nil {
		pg.Close()
		return nil, fmt.Errorf("initdb: %w: %s", err, out)
	}
	if pg.Addr, err = FreeAddr(); err != nil {
		pg.Close()
		return nil, err
	}
	_, port, _ := net.SplitHostPort(pg.Addr)
	pg.proc = &Proc{
		Name: name, Path: filepath.Join(bin, "postgres"), Dir: dir, LogDir: logDir, Cred: cred,
		Args: []string{"-D", data, "-p", port, "-k", dir,
			"-c", "listen_addresses=127.0.0.1", "-c", "max_connections=300",
			// Nothing here survives the machine: durability to disk is not
			// what the harness tests (a restart of the server keeps every
			// committed transaction either way).
			"-c", "fsync=off", "-c", "full_page_writes=off"},
		Ready: func() bool { return pg.ping(ctx) },
	}
	if err := pg.proc.Start(ctx); err != nil {
		pg.Close()
		return nil, err
	}
	return pg, nil
}

// URL is the URL of database name on the cluster.
func (pg *Postgres) URL(name string) string {
	return "postgres://postgres@" + pg.Addr + "/" + name + "?sslmode=disable"
}

func (pg *Postgres) ping(ctx context.Context) bool {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, pg.URL("postgres"))
	if err != nil {
		return false
	}
	conn.Close(ctx)
	return true
}

// Stop shuts the server down in fast mode (SIGINT): sessions are ended,
// transactions in flight roll back, everything committed stays.
func (pg *Postgres) Stop() { pg.proc.Stop(syscall.SIGINT, time.Minute) }

// Start starts the stopped server again, on the same port and data.
func (pg *Postgres) Start(ctx context.Context) error { return pg.proc.Start(ctx) }

// Close stops the server and removes its directory.
func (pg *Postgres) Close() {
	if pg.proc != nil {
		pg.Stop()
	}
	_ = os.RemoveAll(pg.dir)
}

// postgresBin is the newest /usr/lib/postgresql/N/bin, or the directory of
// initdb on PATH.
func postgresBin() (string, error) {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) < version(dirs[j]) })
	for i := len(dirs) - 1; i >= 0; i-- {
		if _, err := os.Stat(filepath.Join(dirs[i], "initdb")); err == nil {
			return dirs[i], nil
		}
	}
	if p, err := exec.LookPath("initdb"); err == nil {
		return filepath.Dir(p), nil
	}
	return "", errors.New("no Postgres server binaries (initdb) under /usr/lib/postgresql/*/bin or on PATH: install them (Debian: apt-get install postgresql)")
}

func version(binDir string) float64 {
	v, _ := strconv.ParseFloat(filepath.Base(filepath.Dir(binDir)), 64)
	return v
}

// postgresCredential is who runs initdb and the server: the harness's own
// user, or the system user postgres when the harness runs as root. That
// user is given dir.
func postgresCredential(dir string) (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, fmt.Errorf("running as root, the Postgres cluster needs the system user postgres (initdb refuses root): %w", err)
	}
	uid, _ := strconv.ParseUint(u.Uid, 10, 32)
	gid, _ := strconv.ParseUint(u.Gid, 10, 32)
	if err := os.Chown(dir, int(uid), int(gid)); err != nil {
		return nil, err
	}
	// The user must reach dir through its parents (a TMPDIR under /root
	// would not do).
	if strings.HasPrefix(dir, "/root/") {
		return nil, fmt.Errorf("%s is under /root, which the postgres user cannot enter: set TMPDIR elsewhere", dir)
	}
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
}
