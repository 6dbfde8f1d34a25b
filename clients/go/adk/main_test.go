package adk_test

import (
	"testing"

	mnemo "github.com/mnemod/mnemod/clients/go"
	"github.com/mnemod/mnemod/clients/go/internal/daemontest"
)

// daemons are the real mnemods the tests run against, one per storage backend.
var daemons map[string]*daemontest.Daemon

func TestMain(m *testing.M) {
	daemontest.Main(m, func(started map[string]*daemontest.Daemon) { daemons = started })
}

// eachBackend runs test against a client of every backend's daemon.
func eachBackend(t *testing.T, test func(t *testing.T, c *mnemo.Client)) {
	t.Helper()
	for _, backend := range daemontest.Backends {
		t.Run(backend, func(t *testing.T) { test(t, client(t, backend)) })
	}
}

func client(t *testing.T, backend string) *mnemo.Client { return daemons[backend].Client(t) }

// emptyApp removes every session, user state and app state key of app, so
// that a test starts from nothing.
func emptyApp(t *testing.T, c *mnemo.Client, app string) {
	t.Helper()
	ctx := t.Context()
	users := map[string]bool{}
	for s, err := range c.Sessions(ctx, app, "", mnemo.ListSessionsOptions{Limit: 1000}) {
		if err != nil {
			t.Fatal(err)
		}
		users[s.User] = true
	}
	for user := range users {
		if _, err := c.PurgeUser(ctx, app, user); err != nil {
			t.Fatal(err)
		}
	}
	state, err := c.AppState(ctx, app)
	if err != nil {
		t.Fatal(err)
	}
	for key := range state {
		if err := c.DeleteAppStateKey(ctx, app, key); err != nil {
			t.Fatal(err)
		}
	}
}
