package trpc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"trpc.group/trpc-go/trpc-agent-go/session"

	mnemo "github.com/mnemod/mnemod/clients/go"
)

var _ session.TrackService = (*SessionService)(nil)

// tracksKey is the session state key holding the session's track names, as
// in tRPC's own services (mnemod has no listing of a session's tracks).
const tracksKey = "tracks"

// trackEntry is a track event as a mnemod track keeps it: its payload, and
// its time to the nanosecond (mnemod's own timestamp keeps microseconds).
type trackEntry struct {
	Payload json.RawMessage `json:"payload"`
	At      time.Time       `json:"at"`
}

// AppendTrackEvent appends e to its track of sess (a mnemod track: a side
// list of the session that is not its transcript), then to sess in place.
func (s *SessionService) AppendTrackEvent(ctx context.Context, sess *session.Session, e *session.TrackEvent,
	options ...session.Option) error {
	key, err := keyOf(sess)
	if err != nil {
		return err
	}
	if e == nil {
		return errors.New("trpc: AppendTrackEvent needs a track event")
	}
	if err := s.indexTrack(ctx, key, e.Track); err != nil {
		return err
	}
	entry := trackEntry{Payload: e.Payload, At: e.Timestamp}
	if len(entry.Payload) == 0 {
		entry.Payload = json.RawMessage("null")
	}
	_, err = s.client.AppendTrack(ctx, key.AppName, key.UserID, key.SessionID, string(e.Track), entry, e.Timestamp)
	if err != nil {
		return fmt.Errorf("trpc: appending to track %s of session %s/%s/%s: %w",
			e.Track, key.AppName, key.UserID, key.SessionID, err)
	}
	return sess.AppendTrackEvent(e, options...)
}

// indexTrack adds track to the session's stored track names when it is new.
func (s *SessionService) indexTrack(ctx context.Context, key session.Key, track session.Track) error {
	read, err := s.client.GetSession(ctx, key.AppName, key.UserID, key.SessionID,
		mnemo.GetSessionOptions{NumRecentEvents: 1})
	if err != nil {
		return fmt.Errorf("trpc: reading session %s/%s/%s: %w", key.AppName, key.UserID, key.SessionID, err)
	}
	tracks, err := session.TracksFromState(stateMapOf(read.Session.State))
	if err != nil || slices.Contains(tracks, track) {
		return err
	}
	index, _ := json.Marshal(append(tracks, track))
	_, err = s.client.PatchSessionState(ctx, key.AppName, key.UserID, key.SessionID,
		map[string]any{tracksKey: toJSON(index)}, read.Session.Version)
	if err != nil {
		return fmt.Errorf("trpc: indexing track %s of session %s/%s/%s: %w",
			track, key.AppName, key.UserID, key.SessionID, err)
	}
	return nil
}

// tracks reads every track the session's state names.
func (s *SessionService) tracks(ctx context.Context, key session.Key,
	state session.StateMap) (map[session.Track]*session.TrackEvents, error) {
	names, err := session.TracksFromState(state)
	if err != nil || len(names) == 0 {
		return nil, err
	}
	tracks := make(map[session.Track]*session.TrackEvents, len(names))
	for _, name := range names {
		history := &session.TrackEvents{Track: name}
		for stored, err := range s.client.Track(ctx, key.AppName, key.UserID, key.SessionID, string(name), 0) {
			if err != nil {
				return nil, fmt.Errorf("trpc: reading track %s of session %s/%s/%s: %w",
					name, key.AppName, key.UserID, key.SessionID, err)
			}
			var entry trackEntry
			if json.Unmarshal(stored.Payload, &entry) != nil || entry.At.IsZero() {
				entry = trackEntry{Payload: stored.Payload, At: stored.Timestamp} // another client's entry
			}
			history.Events = append(history.Events, session.TrackEvent{Track: name, Payload: entry.Payload,
				Timestamp: entry.At})
		}
		tracks[name] = history
	}
	return tracks, nil
}

// filterTracks keeps the track events at or after opts.EventTime, the
// newest opts.EventNum of them, as tRPC's own services do.
func filterTracks(tracks map[session.Track]*session.TrackEvents, opts *session.Options) {
	for _, history := range tracks {
		events := history.Events
		if !opts.EventTime.IsZero() {
			events = slices.DeleteFunc(events, func(e session.TrackEvent) bool {
				return e.Timestamp.Before(opts.EventTime)
			})
		}
		if opts.EventNum > 0 && len(events) > opts.EventNum {
			events = events[len(events)-opts.EventNum:]
		}
		history.Events = events
	}
}
