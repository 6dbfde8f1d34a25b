// Package daemontest starts real mnemod daemons for the Go modules' tests:
// each in its own temporary folder with its own config, a free TCP port and
// a Unix socket, on the memory or sqlite storage plugin. The daemon comes
// from MNEMO_MNEMOD and its plugins from MNEMO_PLUGIN_DIR (ctest sets both
// to the build tree's).
package daemontest

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	mnemo "github.com/mnemod/mnemod/clients/go"
)

// Backends are the storage plugins the tests run against.
var Backends = []string{"memory", "sqlite"}

// Daemon is one running mnemod.
type Daemon struct {
	// Backend is the storage plugin: memory or sqlite.
	Backend string
	// URL is its TCP listener, http://127.0.0.1:PORT.
	URL string
	// UnixURL is its Unix socket listener, unix:/path.
	UnixURL string
	dir     string
	cmd     *exec.Cmd
	waited  chan error
}

// Main runs a test binary's tests against one daemon per backend, which it
// hands to run before the tests (run typically keeps them in package
// variables) and stops after. Without MNEMO_MNEMOD and MNEMO_PLUGIN_DIR the
// tests are not run: under CI=true that fails, elsewhere it says so and passes.
func Main(m *testing.M, run func(daemons map[string]*Daemon)) {
	os.Exit(mainCode(m, run))
}

func mainCode(m *testing.M, run func(map[string]*Daemon)) int {
	if os.Getenv("MNEMO_MNEMOD") == "" || os.Getenv("MNEMO_PLUGIN_DIR") == "" {
		msg := "MNEMO_MNEMOD and MNEMO_PLUGIN_DIR are not set: these tests need a real mnemod " +
			"(run them through ctest, or set MNEMO_MNEMOD=build/daemon/mnemod MNEMO_PLUGIN_DIR=build/plugins)"
		if os.Getenv("CI") == "true" {
			fmt.Fprintln(os.Stderr, "FAIL: "+msg)
			return 1
		}
		fmt.Fprintln(os.Stderr, "SKIP: "+msg)
		return 0
	}
	daemons := map[string]*Daemon{}
	defer func() {
		for _, d := range daemons {
			if err := d.Stop(); err != nil {
				fmt.Fprintln(os.Stderr, err)
			}
		}
	}()
	for _, backend := range Backends {
		d, err := Start(backend, "")
		if err != nil {
			fmt.Fprintln(os.Stderr, "FAIL:", err)
			return 1
		}
		daemons[backend] = d
	}
	run(daemons)
	return m.Run()
}

// Start starts a daemon on backend; extra is more top-level YAML for its config.
func Start(backend, extra string) (*Daemon, error) {
	// Short: a Unix socket path must fit in 108 bytes.
	dir, err := os.MkdirTemp("", "mnemo-go-")
	if err != nil {
		return nil, err
	}
	d, err := start(dir, backend, extra)
	if err != nil {
		os.RemoveAll(dir) // the error holds the daemon's log
	}
	return d, err
}

func start(dir, backend, extra string) (*Daemon, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	socket := filepath.Join(dir, "api.sock")
	config := fmt.Sprintf("server:\n  listen: [\"127.0.0.1:%d\", \"unix:%s\"]\n  admin_socket: %s/admin.sock\n"+
		"storage:\n  plugin: %s\n  plugin_dir: %s\n", port, socket, dir, backend, os.Getenv("MNEMO_PLUGIN_DIR"))
	if backend == "sqlite" {
		config += fmt.Sprintf("  options: {path: %s/mnemo.db}\nmemory:\n  index_dir: %s/memory-index\n", dir, dir)
	}
	if scripts := repoScripts(); scripts != "" {
		// The repository's scripts: the default summarizer (scripts/summarize.lua) among them.
		config += "scripts:\n  dir: " + scripts + "\n"
	}
	config += extra
	path := filepath.Join(dir, "mnemod.yaml")
	if err := os.WriteFile(path, []byte(config), 0o600); err != nil {
		return nil, err
	}
	log, err := os.Create(filepath.Join(dir, "log"))
	if err != nil {
		return nil, err
	}
	defer log.Close()
	cmd := exec.Command(os.Getenv("MNEMO_MNEMOD"), "--config", path)
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting mnemod (%s): %w", backend, err)
	}
	d := &Daemon{Backend: backend, URL: fmt.Sprintf("http://127.0.0.1:%d", port), UnixURL: "unix:" + socket,
		dir: dir, cmd: cmd}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); {
		select {
		case err := <-exited:
			return nil, fmt.Errorf("mnemod (%s) exited at start (%v); its log:\n%s", backend, err, d.Log())
		case <-time.After(20 * time.Millisecond):
		}
		if resp, err := http.Get(d.URL + "/healthz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				d.waited = exited
				return d, nil
			}
		}
	}
	_ = cmd.Process.Kill()
	<-exited
	return nil, fmt.Errorf("mnemod (%s) did not answer /healthz on port %d within 30 s; its log:\n%s",
		backend, port, d.Log())
}

// Client is a client of the daemon over TCP, closed when the test ends.
func (d *Daemon) Client(t testing.TB, opts ...mnemo.Option) *mnemo.Client {
	t.Helper()
	c, err := mnemo.New(d.URL, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// Log is the daemon's log so far.
func (d *Daemon) Log() string {
	text, _ := os.ReadFile(filepath.Join(d.dir, "log"))
	return string(text)
}

// Stop stops the daemon with SIGTERM and removes its folder; it answers why
// that was not a clean exit 0, with the log.
func (d *Daemon) Stop() error {
	defer os.RemoveAll(d.dir)
	_ = d.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-d.waited:
		if err != nil {
			return fmt.Errorf("mnemod (%s) did not exit cleanly (%v); its log:\n%s", d.Backend, err, d.Log())
		}
		return nil
	case <-time.After(20 * time.Second):
		_ = d.cmd.Process.Kill()
		return errors.New("mnemod (" + d.Backend + ") did not exit within 20 s of SIGTERM; its log:\n" + d.Log())
	}
}

// repoScripts is the repository's scripts folder, found beside this file's source.
func repoScripts() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return ""
	}
	dir := filepath.Join(filepath.Dir(file), "..", "..", "..", "..", "scripts")
	if _, err := os.Stat(filepath.Join(dir, "summarize.lua")); err != nil {
		return ""
	}
	return dir
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
