package mnemo_test

import (
	"os"
	"testing"

	mnemo "github.com/mnemod/mnemod/clients/go"
	"github.com/mnemod/mnemod/clients/go/internal/daemontest"
)

// daemons are the real mnemods the tests run against, one per storage backend.
var daemons map[string]*daemontest.Daemon

func TestMain(m *testing.M) {
	daemontest.Main(m, func(started map[string]*daemontest.Daemon) {
		daemons = started
		// The examples make their client with mnemo.New(""), which reads MNEMO_URL.
		os.Setenv("MNEMO_URL", started["memory"].URL)
	})
}

// eachBackend runs test against a client of every backend's daemon.
func eachBackend(t *testing.T, test func(t *testing.T, c *mnemo.Client)) {
	t.Helper()
	for _, backend := range daemontest.Backends {
		t.Run(backend, func(t *testing.T) {
			test(t, daemons[backend].Client(t))
		})
	}
}

// startOwn starts a memory-storage daemon for one test with extra config
// lines; it is stopped, and must stop cleanly, when the test ends.
func startOwn(t *testing.T, extra string) *daemontest.Daemon {
	t.Helper()
	d, err := daemontest.Start("memory", extra)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := d.Stop(); err != nil {
			t.Error(err)
		}
	})
	return d
}

// must fails the test at once on an error, and answers the value otherwise.
func must[T any](t *testing.T) func(T, error) T {
	t.Helper()
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}
