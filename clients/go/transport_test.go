package mnemo_test

import (
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	mnemo "github.com/mnemod/mnemod/clients/go"
)

func TestUnixSocket(t *testing.T) {
	c := must[*mnemo.Client](t)(mnemo.New(daemons["sqlite"].UnixURL))
	defer c.Close()
	s := must[*mnemo.Session](t)(c.CreateSession(t.Context(), "unix", "u1", mnemo.NewSession{}))
	tcp := must[*mnemo.Client](t)(mnemo.New(daemons["sqlite"].URL))
	defer tcp.Close()
	must[*mnemo.SessionWithEvents](t)(tcp.GetSession(t.Context(), "unix", "u1", s.ID, mnemo.GetSessionOptions{}))
}

func TestBadAddress(t *testing.T) {
	for _, addr := range []string{"127.0.0.1:7420", "unix:", "ftp://x"} {
		if _, err := mnemo.New(addr); err == nil {
			t.Errorf("New(%q) accepted it", addr)
		}
	}
}

func TestBearerToken(t *testing.T) {
	d := startOwn(t, "auth:\n  required: true\n  admin_tokens: [admin-secret]\n"+
		"apps:\n  shop:\n    tokens: [shop-secret]\n")
	ctx := t.Context()
	for token, want := range map[string]error{"": mnemo.Unauthenticated, "wrong": mnemo.Unauthenticated,
		"shop-secret": nil, "admin-secret": nil} {
		c := must[*mnemo.Client](t)(mnemo.New(d.URL, mnemo.WithToken(token)))
		if _, err := c.ListSessions(ctx, "shop", "u1", mnemo.ListSessionsOptions{}); !errors.Is(err, want) {
			t.Errorf("token %q: %v, want %v", token, err, want)
		}
		c.Close()
	}
	c := must[*mnemo.Client](t)(mnemo.New(d.URL, mnemo.WithToken("shop-secret")))
	defer c.Close()
	if _, err := c.ListSessions(ctx, "other", "u1", mnemo.ListSessionsOptions{}); !errors.Is(err, mnemo.PermissionDenied) {
		t.Errorf("another app's route: %v, want PermissionDenied", err)
	}
}

// overloaded answers 429 with Retry-After until it has answered fails times, then 200.
func overloaded(t *testing.T, fails int32, retryAfter string) (*httptest.Server, *atomic.Int32) {
	var calls atomic.Int32
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) <= fails {
			w.Header().Set("Retry-After", retryAfter)
			w.WriteHeader(http.StatusTooManyRequests)
			w.Write([]byte(`{"error":{"code":"overloaded","message":"the append queue is full","details":{}}}`))
			return
		}
		w.Write([]byte(`{"state":{"k":1}}`))
	}))
	t.Cleanup(server.Close)
	return server, &calls
}

func TestOverloadedHonoursRetryAfter(t *testing.T) {
	server, calls := overloaded(t, 2, "0.2")
	c := must[*mnemo.Client](t)(mnemo.New(server.URL))
	start := time.Now()
	state := must[map[string]any](t)(c.AppState(t.Context(), "shop"))
	if state["k"] != 1.0 || calls.Load() != 3 {
		t.Errorf("state %v after %d calls", state, calls.Load())
	}
	if waited := time.Since(start); waited < 400*time.Millisecond {
		t.Errorf("two Retry-After of 0.2 s waited only %v", waited)
	}

	server, calls = overloaded(t, 5, "0")
	c = must[*mnemo.Client](t)(mnemo.New(server.URL, mnemo.WithRetry(mnemo.RetryPolicy{Retries: 1})))
	_, err := c.AppState(t.Context(), "shop")
	var apiErr *mnemo.Error
	if !errors.As(err, &apiErr) || !errors.Is(err, mnemo.Overloaded) || apiErr.Attempts != 2 || calls.Load() != 2 {
		t.Errorf("out of retries: %v after %d calls", err, calls.Load())
	}

	server, calls = overloaded(t, 5, "120")
	c = must[*mnemo.Client](t)(mnemo.New(server.URL))
	_, err = c.AppState(t.Context(), "shop")
	if !errors.As(err, &apiErr) || apiErr.RetryAfter != 120*time.Second || calls.Load() != 1 {
		t.Errorf("a Retry-After beyond MaxRetryAfter: %v after %d calls, want no retry", err, calls.Load())
	}
}

// TestLostAnswer: a connection that breaks before the answer is retried for
// a request safe to repeat, and not for one that is not.
func TestLostAnswer(t *testing.T) {
	var calls atomic.Int32
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			conn, _, _ := w.(http.Hijacker).Hijack()
			conn.Close()
			return
		}
		w.Write([]byte(`{"rewound_count":1,"turns_undone":1,"target_text":"x","version":3}`))
	}))
	defer server.Close()
	c := must[*mnemo.Client](t)(mnemo.New(server.URL))
	_, err := c.Rewind(t.Context(), "a", "u", "s", 1)
	var connErr *mnemo.ConnectionError
	if !errors.As(err, &connErr) || calls.Load() != 1 {
		t.Fatalf("a rewind whose answer was lost: %v after %d calls, want a ConnectionError and no retry",
			err, calls.Load())
	}
	calls.Store(0)
	must[map[string]any](t)(c.AppState(t.Context(), "a"))
	if calls.Load() != 2 {
		t.Errorf("a read whose answer was lost was sent %d times, want 2", calls.Load())
	}
}

func TestUnreachable(t *testing.T) {
	l := must[net.Listener](t)(net.Listen("tcp", "127.0.0.1:0"))
	addr := l.Addr().String()
	l.Close()
	c := must[*mnemo.Client](t)(mnemo.New("http://"+addr, mnemo.WithRetry(mnemo.RetryPolicy{Backoff: time.Millisecond})))
	_, err := c.Rewind(t.Context(), "a", "u", "s", 1)
	var connErr *mnemo.ConnectionError
	// A refused connection never reached the daemon: even a rewind is tried again.
	if !errors.As(err, &connErr) || connErr.Attempts != 3 {
		t.Errorf("unreachable: %v, want a ConnectionError after 3 attempts", err)
	}
}

// TestKeepAlive: requests in turn reuse one connection.
func TestKeepAlive(t *testing.T) {
	var opened atomic.Int32
	server := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"state":{}}`))
	}))
	server.Config.ConnState = func(_ net.Conn, state http.ConnState) {
		if state == http.StateNew {
			opened.Add(1)
		}
	}
	server.Start()
	defer server.Close()
	c := must[*mnemo.Client](t)(mnemo.New(server.URL))
	defer c.Close()
	for range 5 {
		must[map[string]any](t)(c.AppState(t.Context(), "shop"))
	}
	if n := opened.Load(); n != 1 {
		t.Errorf("5 requests opened %d connections, want 1", n)
	}
}
