package mnemo

import (
	"context"
	"iter"
	"time"
)

// Lane is a stable key for a place where a conversation happens (such as
// "telegram:dm:42"), pointing at its current session.
type Lane struct {
	App              string    `json:"app"`
	Lane             string    `json:"lane"`
	SessionID        string    `json:"session_id"`
	User             string    `json:"user"`
	Platform         string    `json:"platform,omitempty"`
	ChatType         string    `json:"chat_type,omitempty"`
	CreatedAt        time.Time `json:"created_at"`
	UpdatedAt        time.Time `json:"updated_at"`
	Suspended        bool      `json:"suspended"`
	ResumePending    bool      `json:"resume_pending"`
	ResumeReason     string    `json:"resume_reason,omitempty"`
	WasAutoReset     bool      `json:"was_auto_reset"`
	AutoResetReason  string    `json:"auto_reset_reason,omitempty"`
	ResetHadActivity bool      `json:"reset_had_activity"`
	IsFreshReset     bool      `json:"is_fresh_reset"`
	Version          int64     `json:"version"`
}

// ResolveLane asks for a lane's current session.
type ResolveLane struct {
	User     string `json:"user"`
	Platform string `json:"platform,omitempty"`
	// ChatType is dm, group, channel or thread.
	ChatType string `json:"chat_type,omitempty"`
	// ForceNew starts a new session whatever the reset policy says.
	ForceNew bool           `json:"force_new,omitempty"`
	Metadata map[string]any `json:"metadata,omitempty"`
}

// LaneSession is a lane and its session after a resolve, reset or switch.
type LaneSession struct {
	Lane    Lane    `json:"lane"`
	Session Session `json:"session"`
	// Created says whether Resolve started a new session.
	Created bool `json:"created"`
}

// LanePage is one page of lanes, newest first.
type LanePage struct {
	Lanes         []Lane `json:"lanes"`
	NextPageToken string `json:"next_page_token"`
}

// ListLanesOptions narrows and pages ListLanes.
type ListLanesOptions struct {
	ActiveWithin time.Duration
	Limit        int
	PageToken    string
}

// The reasons ResumePending takes.
const (
	ResumeRestartTimeout     = "restart_timeout"
	ResumeShutdownTimeout    = "shutdown_timeout"
	ResumeRestartInterrupted = "restart_interrupted"
)

// ResolveLane answers the lane's current session, starting a new one as the
// reset policy (or ForceNew) says.
func (c *Client) ResolveLane(ctx context.Context, app, lane string, r ResolveLane) (*LaneSession, error) {
	var out LaneSession
	err := c.post(ctx, lanePath(app, lane)+"/resolve", r, !r.ForceNew, &out)
	return result(&out, err)
}

// Lane reads a lane.
func (c *Client) Lane(ctx context.Context, app, lane string) (*Lane, error) {
	var out Lane
	err := c.get(ctx, lanePath(app, lane), nil, &out)
	return result(&out, err)
}

// ListLanes answers one page of an app's lanes.
func (c *Client) ListLanes(ctx context.Context, app string, opts ListLanesOptions) (*LanePage, error) {
	q := query{}.int("active_within", int64(opts.ActiveWithin/time.Second)).int("limit", int64(opts.Limit)).
		str("page_token", opts.PageToken)
	var out LanePage
	err := c.get(ctx, appPath(app)+"/lanes", q, &out)
	return result(&out, err)
}

// Lanes iterates over every page of ListLanes.
func (c *Client) Lanes(ctx context.Context, app string, opts ListLanesOptions) iter.Seq2[Lane, error] {
	return pages(opts.PageToken, func(token string) ([]Lane, string, error) {
		opts.PageToken = token
		page, err := c.ListLanes(ctx, app, opts)
		if err != nil {
			return nil, "", err
		}
		return page.Lanes, page.NextPageToken, nil
	})
}

// ResetLane moves the lane to a new session (IsFreshReset true).
func (c *Client) ResetLane(ctx context.Context, app, lane string) (*LaneSession, error) {
	var out LaneSession
	err := c.post(ctx, lanePath(app, lane)+"/reset", nil, false, &out)
	return result(&out, err)
}

// SwitchLane points the lane at another session.
func (c *Client) SwitchLane(ctx context.Context, app, lane, sessionID string) (*LaneSession, error) {
	var out LaneSession
	err := c.post(ctx, lanePath(app, lane)+"/switch", map[string]string{"session_id": sessionID}, true, &out)
	return result(&out, err)
}

// SuspendLane makes the next resolve start afresh.
func (c *Client) SuspendLane(ctx context.Context, app, lane string) (*Lane, error) {
	var out Lane
	err := c.post(ctx, lanePath(app, lane)+"/suspend", nil, true, &out)
	return result(&out, err)
}

// ResumePending marks the lane resume-pending for reason (a Resume* constant).
func (c *Client) ResumePending(ctx context.Context, app, lane, reason string) (*Lane, error) {
	var out Lane
	err := c.post(ctx, lanePath(app, lane)+"/resume-pending", map[string]string{"reason": reason}, true, &out)
	return result(&out, err)
}

// TurnComplete ends a turn on the lane, counting its tokens, and clears the
// resume and reset flags.
func (c *Client) TurnComplete(ctx context.Context, app, lane string, inputTokens, outputTokens int64) (*Lane, error) {
	body := map[string]int64{}
	if inputTokens != 0 || outputTokens != 0 {
		body["input_tokens"], body["output_tokens"] = inputTokens, outputTokens
	}
	var out Lane
	// Counted tokens would count twice if repeated.
	err := c.post(ctx, lanePath(app, lane)+"/turn-complete", body, len(body) == 0, &out)
	return result(&out, err)
}

// ResetPolicy says when a lane moves to a new session.
type ResetPolicy struct {
	// Mode is none, idle, daily or both.
	Mode string `json:"mode"`
	// AtHour is the daily reset's hour, in ResetPolicies.Timezone.
	AtHour      int  `json:"at_hour"`
	IdleMinutes int  `json:"idle_minutes"`
	Notify      bool `json:"notify"`
}

// ResetMatch is what an override matches: only the keys it names are set.
type ResetMatch struct {
	Platform string `json:"platform,omitempty"`
	ChatType string `json:"chat_type,omitempty"`
}

// ResetOverride is a policy for the lanes its Match equals.
type ResetOverride struct {
	Match  ResetMatch  `json:"match"`
	Policy ResetPolicy `json:"policy"`
}

// ResetPolicies are the policies lanes follow, as the daemon runs them: each
// override's policy merged over Default, and the first matching override wins.
type ResetPolicies struct {
	// Timezone is "local" or an IANA time zone name.
	Timezone  string          `json:"timezone"`
	Default   ResetPolicy     `json:"default"`
	Overrides []ResetOverride `json:"overrides"`
}

// ResetPolicies reads the daemon's reset policies (the same for every app)
// with a token valid for app.
func (c *Client) ResetPolicies(ctx context.Context, app string) (*ResetPolicies, error) {
	var out ResetPolicies
	err := c.get(ctx, appPath(app)+"/reset-policies", nil, &out)
	return result(&out, err)
}
