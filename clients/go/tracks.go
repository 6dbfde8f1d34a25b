package mnemo

import (
	"context"
	"encoding/json"
	"iter"
	"time"
)

// TrackEvent is one entry of a session's track: a side list of events that
// are not part of the transcript (tool traces, audit records).
type TrackEvent struct {
	Seq       int64           `json:"seq"`
	Payload   json.RawMessage `json:"payload"`
	Timestamp time.Time       `json:"timestamp"`
}

type trackBody struct {
	Payload   any       `json:"payload"`
	Timestamp time.Time `json:"timestamp,omitzero"`
}

// AppendTrack appends payload (any JSON value) to a session's track; a zero
// timestamp means now. It answers the entry's seq and timestamp.
func (c *Client) AppendTrack(ctx context.Context, app, user, session, track string, payload any,
	timestamp time.Time) (*TrackEvent, error) {
	var out TrackEvent
	err := c.post(ctx, sessionPath(app, user, session)+"/tracks/"+seg(track), trackBody{payload, timestamp}, false, &out)
	if err != nil {
		return nil, err
	}
	out.Payload, _ = json.Marshal(payload)
	return &out, nil
}

// ListTrack answers up to limit entries of a track after afterSeq (limit 0: the daemon's default).
func (c *Client) ListTrack(ctx context.Context, app, user, session, track string, afterSeq int64,
	limit int) ([]TrackEvent, error) {
	var out struct {
		Events []TrackEvent `json:"events"`
	}
	q := query{}.int("after_seq", afterSeq).int("limit", int64(limit))
	if err := c.get(ctx, sessionPath(app, user, session)+"/tracks/"+seg(track), q, &out); err != nil {
		return nil, err
	}
	return out.Events, nil
}

// Track iterates over a whole track, pageSize entries a request (0: 1000).
func (c *Client) Track(ctx context.Context, app, user, session, track string,
	pageSize int) iter.Seq2[TrackEvent, error] {
	if pageSize <= 0 {
		pageSize = 1000
	}
	return func(yield func(TrackEvent, error) bool) {
		var after int64
		for {
			events, err := c.ListTrack(ctx, app, user, session, track, after, pageSize)
			if err != nil {
				yield(TrackEvent{}, err)
				return
			}
			for _, event := range events {
				if !yield(event, nil) {
					return
				}
			}
			if len(events) < pageSize {
				return
			}
			after = events[len(events)-1].Seq
		}
	}
}

// TrackInfo is one track of a session: its name, how many entries it holds and its last one.
type TrackInfo struct {
	Track   string `json:"track"`
	Events  int64  `json:"events"`
	LastSeq int64  `json:"last_seq"`
	// LastTimestamp is the timestamp of the LastSeq entry (a client's may run backwards).
	LastTimestamp time.Time `json:"last_timestamp"`
}

// TrackPage is one page of a session's tracks, by name.
type TrackPage struct {
	Tracks        []TrackInfo `json:"tracks"`
	NextPageToken string      `json:"next_page_token"`
}

// ListTracksOptions pages ListTracks (Limit 0: the daemon's default, 100).
type ListTracksOptions struct {
	Limit     int
	PageToken string
}

// ListTracks answers one page of a session's tracks by name; a session that
// is not there is NotFound.
func (c *Client) ListTracks(ctx context.Context, app, user, session string,
	opts ListTracksOptions) (*TrackPage, error) {
	q := query{}.int("limit", int64(opts.Limit)).str("page_token", opts.PageToken)
	var out TrackPage
	err := c.get(ctx, sessionPath(app, user, session)+"/tracks", q, &out)
	return result(&out, err)
}

// Tracks iterates over every page of ListTracks.
func (c *Client) Tracks(ctx context.Context, app, user, session string,
	opts ListTracksOptions) iter.Seq2[TrackInfo, error] {
	return pages(opts.PageToken, func(token string) ([]TrackInfo, string, error) {
		opts.PageToken = token
		page, err := c.ListTracks(ctx, app, user, session, opts)
		if err != nil {
			return nil, "", err
		}
		return page.Tracks, page.NextPageToken, nil
	})
}
