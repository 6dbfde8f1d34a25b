package adk_test

import (
	"testing"

	"google.golang.org/adk/v2/session"
	"google.golang.org/adk/v2/session/sessiontestsuite"

	"github.com/mnemod/mnemod/clients/go/adk"
	"github.com/mnemod/mnemod/clients/go/internal/daemontest"
)

// TestConformance runs ADK-Go's own session service suite, unmodified,
// against SessionService on a real mnemod of each storage backend.
func TestConformance(t *testing.T) {
	for _, backend := range daemontest.Backends {
		t.Run(backend, func(t *testing.T) {
			opts := sessiontestsuite.SuiteOptions{
				// mnemod creates a session under the id the client gives.
				SupportsUserProvidedSessionID: true,
				// mnemod stores an event under the id the client gives (ADK's
				// own); it assigns one only to an event without, and
				// SessionService gives every event one first.
				ProvidesServerAssignedEventID: false,
				AppName:                       "adkSuite",
			}
			sessiontestsuite.RunServiceTests(t, opts, func(t *testing.T) session.Service {
				c := client(t, backend)
				// Each test of the suite expects a service with nothing stored.
				emptyApp(t, c, opts.AppName)
				return adk.NewSessionService(c)
			})
		})
	}
}
