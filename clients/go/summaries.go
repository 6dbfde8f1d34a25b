package mnemo

import (
	"context"
	"time"
)

// Summary stands for the events of one filter key up to a seq.
type Summary struct {
	FilterKey string `json:"filter_key"`
	Text      string `json:"text"`
	// FromSeq is the previous summary's UpToSeq + 1 (1 for the first).
	FromSeq int64 `json:"from_seq"`
	UpToSeq int64 `json:"up_to_seq"`
	// EventsCovered counts the events the summary was made from.
	EventsCovered int64     `json:"events_covered"`
	CreatedAt     time.Time `json:"created_at"`
	// Source is "lua" or "command" (the daemon's summarizer) or "client".
	Source string `json:"source"`
}

// NewSummary is a summary a client writes itself.
type NewSummary struct {
	Text      string `json:"text"`
	FilterKey string `json:"filter_key,omitempty"`
	// UpToSeq defaults to the session's last seq.
	UpToSeq int64 `json:"up_to_seq,omitempty"`
}

// SummarizeOptions asks the daemon's summarizer for a summary.
type SummarizeOptions struct {
	FilterKey string `json:"filter_key,omitempty"`
	// Force summarizes even when nothing is new; with nothing left to summarize it is Conflict.
	Force bool `json:"force,omitempty"`
	// Wait answers the summary once written instead of only enqueuing it.
	Wait bool `json:"wait,omitempty"`
}

// Summaries answers the latest summary of each filter key of a session.
func (c *Client) Summaries(ctx context.Context, app, user, session string) ([]Summary, error) {
	var out struct {
		Summaries []Summary `json:"summaries"`
	}
	if err := c.get(ctx, sessionPath(app, user, session)+"/summaries", nil, &out); err != nil {
		return nil, err
	}
	return out.Summaries, nil
}

// PostSummary stores a summary the client wrote (source "client").
func (c *Client) PostSummary(ctx context.Context, app, user, session string, s NewSummary) (*Summary, error) {
	var out Summary
	err := c.post(ctx, sessionPath(app, user, session)+"/summaries", s, false, &out)
	return result(&out, err)
}

// Summarize asks the daemon's summarizer for a summary. With Wait it answers
// the summary once written; without, it only enqueues the work and answers
// nil. With nothing new since the latest summary it answers that summary
// (unless Force). No summarizer configured is Unavailable; a full queue Overloaded.
func (c *Client) Summarize(ctx context.Context, app, user, session string, opts SummarizeOptions) (*Summary, error) {
	var out struct {
		Summary
		Enqueued bool `json:"enqueued"`
	}
	err := c.post(ctx, sessionPath(app, user, session)+"/summarize", opts, !opts.Force, &out)
	if err != nil || out.Enqueued {
		return nil, err
	}
	return &out.Summary, nil
}
