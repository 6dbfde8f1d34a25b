package mnemo

import (
	"context"
	"strings"
	"time"
)

// SearchOptions narrows a transcript search; zero fields take the daemon's defaults.
type SearchOptions struct {
	// Query is a natural question or a few words; empty answers the most
	// recently updated sessions, without hits.
	Query string
	// MatchAll asks that an event hold every word of the query, not any.
	MatchAll bool
	// ByTime orders each session's hits oldest first instead of best first.
	ByTime bool
	// User keeps only this user's sessions.
	User string
	// Channel keeps sessions whose metadata.channel or metadata.platform is this.
	Channel string
	// ExcludeSession leaves out this session (the one the agent is in).
	ExcludeSession string
	// Roles keeps only events of these roles.
	Roles []Role
	// Limit is the number of sessions (default 10, at most 100).
	Limit int
	// Context is the number of events each side of a hit (default 1, at most 10).
	Context int
	// MaxHits is the number of hits per session (default 5, at most 50).
	MaxHits int
}

// SearchResult holds the sessions found, best first.
type SearchResult struct {
	Results []SessionHits `json:"results"`
}

// SessionHits is one session found and its best events.
type SessionHits struct {
	Session SearchedSession `json:"session"`
	Hits    []SearchHit     `json:"hits"`
}

// SearchedSession is the part of a session a search answers.
type SearchedSession struct {
	App        string         `json:"app"`
	User       string         `json:"user"`
	ID         string         `json:"id"`
	Title      string         `json:"title"`
	UpdatedAt  time.Time      `json:"updated_at"`
	Metadata   map[string]any `json:"metadata"`
	EventCount int64          `json:"event_count"`
}

// SearchHit is one event found.
type SearchHit struct {
	Seq  int64 `json:"seq"`
	Role Role  `json:"role"`
	// Excerpt is plain text of at most 200 characters around the best place.
	Excerpt string `json:"excerpt"`
	// Highlights are [start, end) pairs in Unicode code points into Excerpt.
	Highlights [][2]int `json:"highlights"`
	// Context holds the hit and up to Context events each side.
	Context []Event `json:"context"`
}

// Search searches an app's transcripts.
func (c *Client) Search(ctx context.Context, app string, opts SearchOptions) (*SearchResult, error) {
	roles := make([]string, len(opts.Roles))
	for i, role := range opts.Roles {
		roles[i] = string(role)
	}
	q := query{}.str("q", opts.Query).str("user", opts.User).str("channel", opts.Channel).
		str("exclude_session", opts.ExcludeSession).str("role", strings.Join(roles, ",")).
		int("limit", int64(opts.Limit)).int("context", int64(opts.Context)).int("max_hits", int64(opts.MaxHits))
	if opts.MatchAll {
		q.str("match", "all")
	}
	if opts.ByTime {
		q.str("order", "time")
	}
	var out SearchResult
	err := c.get(ctx, appPath(app)+"/search", q, &out)
	return result(&out, err)
}
