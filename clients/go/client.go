package mnemo

import (
	"cmp"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"
	"time"
)

// DefaultURL is where a Client looks for mnemod when given no address and
// MNEMO_URL is unset: the daemon's default listener.
const DefaultURL = "http://127.0.0.1:7420"

// Client talks to one mnemod. It is safe for concurrent use; make one and
// share it, so that its connections are reused.
type Client struct {
	base    string // scheme and host the requests go to
	where   string // the address as given, for error messages
	token   string
	header  http.Header
	http    *http.Client
	retry   RetryPolicy
	timeout time.Duration
}

// RetryPolicy says how a Client retries. A 429 or 503 changed nothing, so
// any request goes again after its Retry-After; a connection that never
// reached the daemon goes again after a backoff; a request whose answer was
// lost goes again only when it is safe to repeat (reads and idempotent writes).
type RetryPolicy struct {
	// Retries is how often a failed request is tried again (default 2; -1 for none).
	Retries int
	// Backoff is the first wait after a connection failure, doubled each retry (default 100 ms).
	Backoff time.Duration
	// MaxBackoff bounds that wait (default 2 s).
	MaxBackoff time.Duration
	// MaxRetryAfter is the longest Retry-After honoured; a longer one fails at once (default 30 s).
	MaxRetryAfter time.Duration
}

// An Option configures a Client in New.
type Option func(*Client)

// WithToken sends token as "Authorization: Bearer" (default MNEMO_TOKEN).
func WithToken(token string) Option { return func(c *Client) { c.token = token } }

// WithRetry sets the retry policy; its zero fields keep their defaults.
func WithRetry(p RetryPolicy) Option {
	return func(c *Client) {
		if p.Retries != 0 {
			c.retry.Retries = max(p.Retries, 0)
		}
		if p.Backoff > 0 {
			c.retry.Backoff = p.Backoff
		}
		if p.MaxBackoff > 0 {
			c.retry.MaxBackoff = p.MaxBackoff
		}
		if p.MaxRetryAfter > 0 {
			c.retry.MaxRetryAfter = p.MaxRetryAfter
		}
	}
}

// WithTimeout bounds each attempt (default 30 s); the context bounds the whole call.
func WithTimeout(d time.Duration) Option { return func(c *Client) { c.timeout = d } }

// WithHeader adds a header to every request.
func WithHeader(key, value string) Option { return func(c *Client) { c.header.Add(key, value) } }

// WithHTTPClient sends requests through h instead of the Client's own
// (for TLS settings or a proxy). A unix: address ignores it.
func WithHTTPClient(h *http.Client) Option { return func(c *Client) { c.http = h } }

// New makes a Client for the daemon at addr: "http://host:port",
// "https://host:port" or "unix:/path/to/socket" (a server.listen entry of
// the daemon). An empty addr means MNEMO_URL, else DefaultURL.
func New(addr string, opts ...Option) (*Client, error) {
	if addr == "" {
		addr = cmp.Or(os.Getenv("MNEMO_URL"), DefaultURL)
	}
	c := &Client{
		where:  addr,
		token:  os.Getenv("MNEMO_TOKEN"),
		header: http.Header{},
		retry: RetryPolicy{
			Retries: 2, Backoff: 100 * time.Millisecond, MaxBackoff: 2 * time.Second, MaxRetryAfter: 30 * time.Second,
		},
		timeout: 30 * time.Second,
	}
	transport := http.DefaultTransport.(*http.Transport).Clone()
	// Agents talk to one daemon: keep enough idle connections for their concurrency.
	transport.MaxIdleConnsPerHost = 64
	unix := strings.HasPrefix(addr, "unix:")
	switch {
	case unix:
		path := strings.TrimPrefix(addr, "unix:")
		if path == "" {
			return nil, fmt.Errorf("mnemo: address %q names no socket: write unix:/path/to/socket", addr)
		}
		var dialer net.Dialer
		transport.DialContext = func(ctx context.Context, _, _ string) (net.Conn, error) {
			return dialer.DialContext(ctx, "unix", path)
		}
		transport.Proxy = nil
		c.base = "http://mnemod"
	case strings.HasPrefix(addr, "http://"), strings.HasPrefix(addr, "https://"):
		c.base = strings.TrimRight(addr, "/")
	default:
		return nil, fmt.Errorf("mnemo: address %q is not http://host:port, https://host:port or unix:/path", addr)
	}
	c.http = &http.Client{Transport: transport}
	for _, opt := range opts {
		opt(c)
	}
	if unix {
		// The socket is dialled by this transport: another client would not reach it.
		c.http = &http.Client{Transport: transport}
	}
	return c, nil
}

// Close closes the Client's idle connections.
func (c *Client) Close() { c.http.CloseIdleConnections() }
