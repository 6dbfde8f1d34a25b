package mnemo

import (
	"context"
	"encoding/json"
	"iter"
	"strings"
	"time"
)

// Role is an event's role.
type Role string

// The roles of events.
const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleSystem    Role = "system"
	RoleTool      Role = "tool"
	RoleSummary   Role = "summary"
)

// NewEvent is an event as a client sends it. Author is required, and Content
// unless StateDelta is given.
type NewEvent struct {
	// ID is unique in the session; AppendEvents gives an event without one a
	// UUIDv7 before the first attempt, so that a retry is stored once.
	ID           string `json:"id,omitempty"`
	InvocationID string `json:"invocation_id,omitempty"`
	Author       string `json:"author"`
	// Role defaults from Author: user for "user", system for "system", else assistant.
	Role Role `json:"role,omitempty"`
	// Content is any JSON value; a json.RawMessage goes as it is.
	Content any `json:"content,omitempty"`
	// Partial events are not stored at all (a streaming fragment).
	Partial bool `json:"partial,omitempty"`
	// StateDelta is applied in the same transaction: "app:K" and "user:K" to
	// those scopes, "temp:K" nowhere, nil values delete.
	StateDelta map[string]any `json:"state_delta,omitempty"`
	Usage      *Usage         `json:"usage,omitempty"`
	ToolCalls  []ToolCall     `json:"tool_calls,omitempty"`
	Media      []Media        `json:"media,omitempty"`
	// FilterKey is the summary branch the event belongs to.
	FilterKey string `json:"filter_key,omitempty"`
	// Timestamp defaults to now; the daemon keeps microseconds.
	Timestamp time.Time      `json:"timestamp,omitzero"`
	Metadata  map[string]any `json:"metadata,omitempty"`
}

// Event is a stored event. Content, StateDelta, ToolCalls, Media and
// Metadata come back byte for byte as sent.
type Event struct {
	ID           string          `json:"id"`
	Seq          int64           `json:"seq"`
	Timestamp    time.Time       `json:"timestamp"`
	InvocationID string          `json:"invocation_id,omitempty"`
	Author       string          `json:"author"`
	Role         Role            `json:"role"`
	Content      json.RawMessage `json:"content,omitempty"`
	StateDelta   map[string]any  `json:"state_delta,omitempty"`
	Usage        *Usage          `json:"usage,omitempty"`
	ToolCalls    []ToolCall      `json:"tool_calls,omitempty"`
	Media        []Media         `json:"media,omitempty"`
	FilterKey    string          `json:"filter_key,omitempty"`
	Metadata     map[string]any  `json:"metadata,omitempty"`
	// DeletedAt is set on rewound and replaced events listed with IncludeDeleted.
	DeletedAt *time.Time `json:"deleted_at,omitempty"`
}

// Text is the event's text: its content when that is a string, else the
// content's "text" field, else "".
func (e *Event) Text() string {
	var text string
	if json.Unmarshal(e.Content, &text) == nil {
		return text
	}
	var object struct {
		Text string `json:"text"`
	}
	_ = json.Unmarshal(e.Content, &object)
	return object.Text
}

// ToolCall records one tool call of an event.
type ToolCall struct {
	Name          string `json:"name"`
	Arguments     any    `json:"arguments,omitempty"`
	ResultSummary string `json:"result_summary,omitempty"`
	Status        string `json:"status,omitempty"`
}

// Media references a file an event carries; media is never uploaded.
type Media struct {
	Kind     string `json:"kind"`
	Path     string `json:"path,omitempty"`
	MimeType string `json:"mime_type,omitempty"`
	SHA256   string `json:"sha256,omitempty"`
}

// AppendOptions makes an append conditional, or creates a missing session.
type AppendOptions struct {
	// ExpectedVersion, when not 0, must be the session's version, else Conflict.
	ExpectedVersion int64 `json:"expected_version,omitempty"`
	// CreateIfMissing creates a missing session first instead of NotFound.
	CreateIfMissing bool `json:"create_if_missing,omitempty"`
}

// AppendResult is what an append stored.
type AppendResult struct {
	// Version is the session's version after the write.
	Version int64 `json:"version"`
	// Appended lists the stored events (partial and dropped ones take no seq).
	Appended        []Appended `json:"appended"`
	SkippedPartial  int        `json:"skipped_partial"`
	Dropped         int        `json:"dropped"`
	Evicted         int        `json:"evicted"`
	SummaryEnqueued bool       `json:"summary_enqueued"`
	// State is the merged state after the write, temp: keys included; nil
	// unless a stored event carried a state delta.
	State map[string]any `json:"state,omitempty"`
}

// Appended is the id, seq and timestamp of one stored event.
type Appended struct {
	ID        string    `json:"id"`
	Seq       int64     `json:"seq"`
	Timestamp time.Time `json:"timestamp"`
}

// ListEventsOptions narrows and pages ListEvents.
type ListEventsOptions struct {
	// AfterSeq answers events after this seq (a previous page's NextAfterSeq).
	AfterSeq int64
	// Limit is the page size (daemon default 100, at most 1000).
	Limit int
	// Roles keeps only events of these roles.
	Roles []Role
	// IncludeDeleted lists rewound and replaced events too.
	IncludeDeleted bool
}

// EventPage is one page of events by seq.
type EventPage struct {
	Events []Event `json:"events"`
	// NextAfterSeq is 0 when no more events are known.
	NextAfterSeq int64 `json:"next_after_seq"`
}

// RewriteResult is what RewriteEvents replaced.
type RewriteResult struct {
	Version  int64 `json:"version"`
	Replaced int64 `json:"replaced"`
}

// RewindResult is what Rewind undid.
type RewindResult struct {
	RewoundCount int64 `json:"rewound_count"`
	TurnsUndone  int64 `json:"turns_undone"`
	// TargetText is the earliest undone user event's text, for the input box.
	TargetText string `json:"target_text"`
	Version    int64  `json:"version"`
}

type eventsBody struct {
	Events []NewEvent `json:"events"`
	AppendOptions
}

// AppendEvents appends a batch atomically: every non-partial event and every
// state delta in one transaction, or nothing. Events without an ID get a
// UUIDv7 first (events itself is not changed), so that a retry after a lost
// answer is recognised by the daemon and stored once.
func (c *Client) AppendEvents(ctx context.Context, app, user, session string, events []NewEvent,
	opts AppendOptions) (*AppendResult, error) {
	var out AppendResult
	body := eventsBody{Events: withIDs(events), AppendOptions: opts}
	err := c.post(ctx, sessionPath(app, user, session)+"/events", body, true, &out)
	return result(&out, err)
}

// AppendEvent appends one event; see AppendEvents.
func (c *Client) AppendEvent(ctx context.Context, app, user, session string, event NewEvent,
	opts AppendOptions) (*AppendResult, error) {
	return c.AppendEvents(ctx, app, user, session, []NewEvent{event}, opts)
}

// ListEvents answers one page of a session's events by seq.
func (c *Client) ListEvents(ctx context.Context, app, user, session string,
	opts ListEventsOptions) (*EventPage, error) {
	roles := make([]string, len(opts.Roles))
	for i, role := range opts.Roles {
		roles[i] = string(role)
	}
	q := query{}.int("after_seq", opts.AfterSeq).int("limit", int64(opts.Limit)).
		str("role", strings.Join(roles, ",")).flag("include_deleted", opts.IncludeDeleted)
	var out EventPage
	err := c.get(ctx, sessionPath(app, user, session)+"/events", q, &out)
	return result(&out, err)
}

// Events iterates over a session's events by seq, a page at a time.
func (c *Client) Events(ctx context.Context, app, user, session string,
	opts ListEventsOptions) iter.Seq2[Event, error] {
	return func(yield func(Event, error) bool) {
		for {
			page, err := c.ListEvents(ctx, app, user, session, opts)
			if err != nil {
				yield(Event{}, err)
				return
			}
			for _, event := range page.Events {
				if !yield(event, nil) {
					return
				}
			}
			if page.NextAfterSeq == 0 || len(page.Events) == 0 {
				return
			}
			opts.AfterSeq = page.NextAfterSeq
		}
	}
}

// RewriteEvents replaces the whole transcript atomically (the old events are
// soft-deleted). ExpectedVersion 0 means unconditional.
func (c *Client) RewriteEvents(ctx context.Context, app, user, session string, events []NewEvent,
	expectedVersion int64) (*RewriteResult, error) {
	var out RewriteResult
	body := eventsBody{Events: withIDs(events), AppendOptions: AppendOptions{ExpectedVersion: expectedVersion}}
	// Repeating a rewrite is harmless unless it was conditional: the retry would see its own version.
	err := c.do(ctx, call{method: "PUT", path: sessionPath(app, user, session) + "/events", body: body,
		safe: expectedVersion == 0}, &out)
	return result(&out, err)
}

// Rewind undoes the last turns user turns: each one's latest user event and
// everything after it are soft-deleted.
func (c *Client) Rewind(ctx context.Context, app, user, session string, turns int) (*RewindResult, error) {
	var out RewindResult
	err := c.post(ctx, sessionPath(app, user, session)+"/rewind", map[string]int{"turns": turns}, false, &out)
	return result(&out, err)
}

func withIDs(events []NewEvent) []NewEvent {
	named := make([]NewEvent, len(events))
	for i, event := range events {
		if event.ID == "" {
			event.ID = NewID()
		}
		named[i] = event
	}
	return named
}
