package trpc_test

import (
	"testing"

	"trpc.group/trpc-go/trpc-agent-go/session"
	"trpc.group/trpc-go/trpc-agent-go/session/inmemory"

	mnemo "github.com/mnemod/mnemod/clients/go"
	"github.com/mnemod/mnemod/clients/go/internal/daemontest"
	"github.com/mnemod/mnemod/clients/go/trpc"
)

// daemons are the real mnemods the tests run against, one per storage backend.
var daemons map[string]*daemontest.Daemon

func TestMain(m *testing.M) {
	daemontest.Main(m, func(started map[string]*daemontest.Daemon) { daemons = started })
}

func client(t *testing.T, backend string) *mnemo.Client { return daemons[backend].Client(t) }

// eachService runs test against tRPC's own in-memory service and against
// SessionService on each backend's mnemod: the same expectations hold for all.
func eachService(t *testing.T, test func(t *testing.T, svc session.Service)) {
	t.Helper()
	t.Run("trpc-inmemory", func(t *testing.T) {
		svc := inmemory.NewSessionService()
		t.Cleanup(func() { _ = svc.Close() })
		test(t, svc)
	})
	eachMnemod(t, func(t *testing.T, svc *trpc.SessionService) { test(t, svc) })
}

// eachMnemod runs test against SessionService on each backend's mnemod.
func eachMnemod(t *testing.T, test func(t *testing.T, svc *trpc.SessionService)) {
	t.Helper()
	for _, backend := range daemontest.Backends {
		t.Run("mnemod-"+backend, func(t *testing.T) { test(t, trpc.NewSessionService(client(t, backend))) })
	}
}

// appName is an app of the test's own, so that tests sharing a daemon never meet.
func appName() string { return "app-" + mnemo.NewID() }

// mnemoListAll lists every memory of a user (their first page).
var mnemoListAll = mnemo.ListMemoriesOptions{Limit: 1000}
