package mnemo

import (
	"context"
	"iter"
	"net/url"
	"time"
)

// Session is one conversation of one user: its events, state, metadata and
// a version that grows with every write to it.
type Session struct {
	App       string     `json:"app"`
	User      string     `json:"user"`
	ID        string     `json:"id"`
	Title     string     `json:"title"`
	ParentID  string     `json:"parent_id,omitempty"`
	CreatedAt time.Time  `json:"created_at"`
	UpdatedAt time.Time  `json:"updated_at"`
	ExpiresAt *time.Time `json:"expires_at,omitempty"`
	Version   int64      `json:"version"`
	// State is the merged view: the session's keys, the app's as "app:K" and
	// the user's as "user:K". Lists leave it out.
	State      map[string]any `json:"state,omitempty"`
	Metadata   map[string]any `json:"metadata"`
	EventCount int64          `json:"event_count"`
	Usage      Usage          `json:"usage"`
}

// Usage counts tokens and cost, of one event or summed over a session.
type Usage struct {
	InputTokens      int64   `json:"input_tokens,omitempty"`
	OutputTokens     int64   `json:"output_tokens,omitempty"`
	CacheReadTokens  int64   `json:"cache_read_tokens,omitempty"`
	CacheWriteTokens int64   `json:"cache_write_tokens,omitempty"`
	TotalTokens      int64   `json:"total_tokens,omitempty"`
	CostUSD          float64 `json:"cost_usd,omitempty"`
}

// NewSession is what CreateSession takes; every field is optional.
type NewSession struct {
	// ID is the session's id; empty: the daemon generates a UUIDv7.
	ID string `json:"id,omitempty"`
	// State follows the state-delta rules: "app:K" and "user:K" go to those scopes.
	State    map[string]any `json:"state,omitempty"`
	Metadata map[string]any `json:"metadata,omitempty"`
	Title    string         `json:"title,omitempty"`
	ParentID string         `json:"parent_id,omitempty"`
	// TTLSeconds: nil keeps the configured TTL; 0 never expires.
	TTLSeconds *int64 `json:"ttl_seconds,omitempty"`
}

// SessionWithEvents is a session read with its events, oldest first, and
// its latest summary when read from a checkpoint.
type SessionWithEvents struct {
	Session Session  `json:"session"`
	Events  []Event  `json:"events"`
	Summary *Summary `json:"summary"`
}

// GetSessionOptions filters the events GetSession answers.
type GetSessionOptions struct {
	// NumRecentEvents keeps only the newest N events (0: all).
	NumRecentEvents int
	// After keeps only events with a timestamp strictly after it (zero: all).
	// The daemon keeps microseconds.
	After time.Time
	// FromCheckpoint answers the latest summary of FilterKey and only the events after it.
	FromCheckpoint bool
	// FilterKey is the summary branch FromCheckpoint reads.
	FilterKey string
}

// ListSessionsOptions narrows and pages ListSessions.
type ListSessionsOptions struct {
	// User narrows an app-wide listing to one user.
	User string
	// Limit is the page size (daemon default 50, at most 1000).
	Limit int
	// PageToken is a previous page's NextPageToken.
	PageToken string
	// ActiveWithin keeps sessions updated that recently (whole seconds).
	ActiveWithin time.Duration
}

// SessionPage is one page of sessions, most recently updated first.
type SessionPage struct {
	Sessions []Session `json:"sessions"`
	// NextPageToken is "" when no more pages are known.
	NextPageToken string `json:"next_page_token"`
}

// PurgeCounts says what PurgeUser removed.
type PurgeCounts struct {
	Sessions  int64 `json:"sessions"`
	Events    int64 `json:"events"`
	Summaries int64 `json:"summaries"`
	Tracks    int64 `json:"tracks"`
	Lanes     int64 `json:"lanes"`
	StateKeys int64 `json:"state_keys"`
	Memories  int64 `json:"memories"`
}

// CreateSession creates a session (version 1). An existing id is AlreadyExists.
func (c *Client) CreateSession(ctx context.Context, app, user string, s NewSession) (*Session, error) {
	var out Session
	// With an id, a lost answer is safe to repeat: the retry's AlreadyExists says it was stored.
	err := c.do(ctx, call{method: "POST", path: userPath(app, user) + "/sessions", body: s, safe: s.ID != ""}, &out)
	return result(&out, err)
}

// GetSession reads a session with its events; a deleted or expired one is NotFound.
func (c *Client) GetSession(ctx context.Context, app, user, session string,
	opts GetSessionOptions) (*SessionWithEvents, error) {
	q := query{}.int("num_recent_events", int64(opts.NumRecentEvents)).time("after", opts.After).
		flag("from_checkpoint", opts.FromCheckpoint).str("filter_key", opts.FilterKey)
	var out SessionWithEvents
	err := c.get(ctx, sessionPath(app, user, session), q, &out)
	return result(&out, err)
}

// ListSessions answers one page of a user's sessions, or of the whole app's
// when user is "" (opts.User then narrows it). Sessions in lists carry no state.
func (c *Client) ListSessions(ctx context.Context, app, user string, opts ListSessionsOptions) (*SessionPage, error) {
	path := appPath(app) + "/sessions"
	if user != "" {
		path = userPath(app, user) + "/sessions"
	}
	q := query{}.str("user", opts.User).int("limit", int64(opts.Limit)).str("page_token", opts.PageToken).
		int("active_within", int64(opts.ActiveWithin/time.Second))
	var out SessionPage
	err := c.get(ctx, path, q, &out)
	return result(&out, err)
}

// Sessions iterates over every page of ListSessions, fetching each as it is consumed.
func (c *Client) Sessions(ctx context.Context, app, user string, opts ListSessionsOptions) iter.Seq2[Session, error] {
	return pages(opts.PageToken, func(token string) ([]Session, string, error) {
		opts.PageToken = token
		page, err := c.ListSessions(ctx, app, user, opts)
		if err != nil {
			return nil, "", err
		}
		return page.Sessions, page.NextPageToken, nil
	})
}

// DeleteSession deletes a session; hard purges it now instead of after
// sweep.purge_after. A session that is not there is NotFound.
func (c *Client) DeleteSession(ctx context.Context, app, user, session string, hard bool) error {
	q := query{}.flag("hard", hard)
	return c.do(ctx, call{method: "DELETE", path: sessionPath(app, user, session), query: url.Values(q), safe: true}, nil)
}

// PurgeUser removes everything of one user in one app at once: sessions,
// events, summaries, tracks, lanes, user state and memories.
func (c *Client) PurgeUser(ctx context.Context, app, user string) (*PurgeCounts, error) {
	var out PurgeCounts
	err := c.do(ctx, call{method: "DELETE", path: userPath(app, user), safe: true}, &out)
	return result(&out, err)
}

func (c *Client) get(ctx context.Context, path string, q query, out any) error {
	return c.do(ctx, call{method: "GET", path: path, query: url.Values(q), safe: true}, out)
}

func (c *Client) post(ctx context.Context, path string, body any, safe bool, out any) error {
	return c.do(ctx, call{method: "POST", path: path, body: body, safe: safe}, out)
}

func result[T any](out *T, err error) (*T, error) {
	if err != nil {
		return nil, err
	}
	return out, nil
}
